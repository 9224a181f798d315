package io.coffer.gateway.auth;

import static io.coffer.gateway.auth.RequestParts.headers;
import static io.coffer.gateway.auth.RequestParts.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request with no trace of a signature is anonymous (the dispatcher decides what it may do); any trace of one is
 * verified as before, so a forged or partial signature never passes as anonymous.
 */
class AnonymousRequestTest {
    static final RequestAuthenticator AUTH = new RequestAuthenticator(
            CredentialStore.of(new Credential("AKANON", "secret", "tenant")),
            Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC), true);

    static SignedRequest request(List<Map.Entry<String, String>> query, Map<String, List<String>> headers) {
        return new SignedRequest("GET", "/bucket/key", query, headers);
    }

    @Test
    void anUnsignedRequestActsForNobody() {
        AuthResult r = AUTH.verify(request(List.of(), headers("host", "x")));
        assertThat(r.isAnonymous()).isTrue();
        assertThat(r.owner()).isNull();
        assertThat(r.accessKeyId()).isNull();
        assertThat(r.payloadSha256()).isNull();
        assertThat(r.streaming()).isFalse();
    }

    @Test
    void anUnsignedRequestsBodyIsTakenAsItDeclaresWhereThatNeedsNoSignature() {
        String sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        assertThat(AUTH.verify(request(List.of(), headers("x-amz-content-sha256", sha))).payloadSha256())
                .isEqualTo(sha);
        AuthResult trailer = AUTH.verify(request(List.of(), headers("x-amz-content-sha256",
                SigV4.STREAMING_UNSIGNED_TRAILER)));
        assertThat(trailer.streaming()).isTrue();
        assertThat(trailer.signedChunks()).isFalse();
        assertThatThrownBy(() -> AUTH.verify(request(List.of(), headers("x-amz-content-sha256",
                SigV4.STREAMING_SIGNED)))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED));
    }

    @Test
    void anyTraceOfASignatureIsVerifiedNotTakenAsAnonymous() {
        for (SignedRequest forged : List.of(
                request(List.of(), headers("authorization", "AWS4-HMAC-SHA256 Credential=AKANON/20260301/us-east-1"
                        + "/s3/aws4_request, SignedHeaders=host, Signature=00")),
                request(List.of(), headers("authorization", "AWS AKANON:forged")),
                request(query("X-Amz-Credential", "AKANON/20260301/us-east-1/s3/aws4_request"), headers()),
                request(query("X-Amz-Signature", "00"), headers()),
                request(query("AWSAccessKeyId", "AKANON"), headers()),
                request(query("Signature", "forged"), headers()))) {
            assertThatThrownBy(() -> AUTH.verify(forged)).isInstanceOf(S3Exception.class);
        }
    }
}

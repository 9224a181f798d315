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
 * The examples of AWS's "Signature Calculations for the Authorization Header" and "Query String Authentication"
 * pages for S3 (examplebucket, AKIAIOSFODNN7EXAMPLE, 2013-05-24), checked through the verifier.
 */
class SigV4VectorsTest {
    static final String AKID = "AKIAIOSFODNN7EXAMPLE";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final Instant TIME = Instant.parse("2013-05-24T00:00:00Z");
    private final SigV4Verifier verifier = new SigV4Verifier(CredentialStore.of(new Credential(AKID, SECRET, "t")),
            Clock.fixed(TIME.plusSeconds(60), ZoneOffset.UTC));

    private static String auth(String signedHeaders, String signature) {
        return "AWS4-HMAC-SHA256 Credential=" + AKID + "/20130524/us-east-1/s3/aws4_request,SignedHeaders="
                + signedHeaders + ",Signature=" + signature;
    }

    @Test
    void getObjectWithRangeExampleVerifies() {
        String sig = "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
        SignedRequest r = new SignedRequest("GET", "/test.txt", List.of(), headers(
                "host", "examplebucket.s3.amazonaws.com", "range", "bytes=0-9",
                "x-amz-content-sha256", SigV4.EMPTY_SHA256, "x-amz-date", "20130524T000000Z",
                "authorization", auth("host;range;x-amz-content-sha256;x-amz-date", sig)));
        AuthResult result = verifier.verify(r);
        assertThat(result.signature()).isEqualTo(sig);
        assertThat(result.credential().owner()).isEqualTo("t");
    }

    @Test
    void putObjectExampleWithDollarInPathAndDateHeaderVerifies() {
        String sig = "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd";
        SignedRequest r = new SignedRequest("PUT", "/test$file.text", List.of(), headers(
                "host", "examplebucket.s3.amazonaws.com", "date", "Fri, 24 May 2013 00:00:00 GMT",
                "x-amz-date", "20130524T000000Z", "x-amz-storage-class", "REDUCED_REDUNDANCY",
                "x-amz-content-sha256", "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
                "authorization", auth("date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class", sig)));
        assertThat(verifier.verify(r).payloadSha256())
                .isEqualTo("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    }

    @Test
    void getBucketLifecycleExampleWithValuelessSubresourceVerifies() {
        String sig = "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543";
        SignedRequest r = new SignedRequest("GET", "/", query("lifecycle", ""), headers(
                "host", "examplebucket.s3.amazonaws.com", "x-amz-date", "20130524T000000Z",
                "x-amz-content-sha256", SigV4.EMPTY_SHA256,
                "authorization", auth("host;x-amz-content-sha256;x-amz-date", sig)));
        assertThat(verifier.verify(r).signature()).isEqualTo(sig);
    }

    @Test
    void listObjectsExampleSortsQueryParameters() {
        String sig = "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7";
        SignedRequest r = new SignedRequest("GET", "/", query("max-keys", "2", "prefix", "J"), headers(
                "host", "examplebucket.s3.amazonaws.com", "x-amz-date", "20130524T000000Z",
                "x-amz-content-sha256", SigV4.EMPTY_SHA256,
                "authorization", auth("host;x-amz-content-sha256;x-amz-date", sig)));
        assertThat(verifier.verify(r).signature()).isEqualTo(sig);
    }

    @Test
    void presignedUrlExampleVerifiesWithinItsDayAndExpiresAfter() {
        String sig = "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404";
        List<Map.Entry<String, String>> q = query("X-Amz-Algorithm", "AWS4-HMAC-SHA256",
                "X-Amz-Credential", AKID + "/20130524/us-east-1/s3/aws4_request", "X-Amz-Date", "20130524T000000Z",
                "X-Amz-Expires", "86400", "X-Amz-SignedHeaders", "host", "X-Amz-Signature", sig);
        SignedRequest r = new SignedRequest("GET", "/test.txt", q, headers("host", "examplebucket.s3.amazonaws.com"));
        assertThat(verifier.verify(r).presigned()).isTrue();

        SigV4Verifier later = new SigV4Verifier(CredentialStore.of(new Credential(AKID, SECRET, "t")),
                Clock.fixed(TIME.plusSeconds(86401), ZoneOffset.UTC));
        assertThatThrownBy(() -> later.verify(r)).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
            assertThat(e.getMessage()).isEqualTo("Request has expired");
        });
    }

    @Test
    void alteredHeaderOrWrongSecretIsSignatureDoesNotMatch() {
        String sig = "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
        SignedRequest r = new SignedRequest("GET", "/test.txt", List.of(), headers(
                "host", "examplebucket.s3.amazonaws.com", "range", "bytes=0-10",
                "x-amz-content-sha256", SigV4.EMPTY_SHA256, "x-amz-date", "20130524T000000Z",
                "authorization", auth("host;range;x-amz-content-sha256;x-amz-date", sig)));
        assertThatThrownBy(() -> verifier.verify(r)).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
    }

    @Test
    void requestOutsideFifteenMinutesIsRequestTimeTooSkewed() {
        SigV4Verifier skewed = new SigV4Verifier(CredentialStore.of(new Credential(AKID, SECRET, "t")),
                Clock.fixed(TIME.plusSeconds(16 * 60), ZoneOffset.UTC));
        SignedRequest r = new SignedRequest("GET", "/test.txt", List.of(), headers(
                "host", "examplebucket.s3.amazonaws.com", "x-amz-content-sha256", SigV4.EMPTY_SHA256,
                "x-amz-date", "20130524T000000Z", "authorization", auth("host;x-amz-content-sha256;x-amz-date",
                        "0".repeat(64))));
        assertThatThrownBy(() -> skewed.verify(r)).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(S3ErrorCode.REQUEST_TIME_TOO_SKEWED));
    }

    @Test
    void unknownAccessKeyIsInvalidAccessKeyId() {
        SignedRequest r = new SignedRequest("GET", "/", List.of(), headers(
                "host", "h", "x-amz-content-sha256", SigV4.EMPTY_SHA256, "x-amz-date", "20130524T000000Z",
                "authorization", "AWS4-HMAC-SHA256 Credential=NOPE/20130524/us-east-1/s3/aws4_request,"
                        + "SignedHeaders=host,Signature=" + "0".repeat(64)));
        assertThatThrownBy(() -> verifier.verify(r)).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(S3ErrorCode.INVALID_ACCESS_KEY_ID));
    }

    @Test
    void presignedExpiryOutOfRangeIsAccessDenied() {
        for (String expires : List.of("604801", "-1000", "0")) {
            List<Map.Entry<String, String>> q = query("X-Amz-Algorithm", "AWS4-HMAC-SHA256",
                    "X-Amz-Credential", AKID + "/20130524/us-east-1/s3/aws4_request", "X-Amz-Date", "20130524T000100Z",
                    "X-Amz-Expires", expires, "X-Amz-SignedHeaders", "host", "X-Amz-Signature", "0".repeat(64));
            SignedRequest r = new SignedRequest("GET", "/test.txt", q, headers("host", "examplebucket.s3.amazonaws.com"));
            assertThatThrownBy(() -> verifier.verify(r)).as(expires).isInstanceOfSatisfying(S3Exception.class,
                    e -> assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED));
        }
    }

    @Test
    void uriEncodingFollowsS3Rules() {
        assertThat(SigV4.canonicalUri("/a b/c+d/ü~_.-$")).isEqualTo("/a%20b/c%2Bd/%C3%BC~_.-%24");
        assertThat(SigV4.foldValue("  a   b  c ")).isEqualTo("a b c");
    }
}

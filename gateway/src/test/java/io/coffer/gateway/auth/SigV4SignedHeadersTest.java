package io.coffer.gateway.auth;

import static io.coffer.gateway.auth.RequestParts.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Which headers a SigV4 signature must cover: every x-amz-* header (S3's AccessDenied "There were headers present in
 * the request which were not signed" otherwise), and non-ASCII values as clients sign them.
 */
class SigV4SignedHeadersTest {
    static final Credential CRED = new Credential("AKV4TEST", "v4-secret", "tenant");
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final String AMZ_DATE = "20260301T120000Z";
    static final String SCOPE = SigV4.scope("20260301", "us-east-1", "s3");
    private final SigV4Verifier verifier = new SigV4Verifier(CredentialStore.of(CRED), Clock.fixed(NOW,
            ZoneOffset.UTC));

    private static byte[] key() {
        return SigV4.signingKey(CRED.secretKey(), "20260301", "us-east-1", "s3");
    }

    /** Header auth over {@code signed} (values as the client signs them); {@code sent} replaces values on the wire. */
    private static SignedRequest headerSigned(Map<String, List<String>> signed, Map<String, List<String>> sent) {
        TreeMap<String, String> canonical = new TreeMap<>();
        signed.forEach((k, v) -> canonical.put(k, String.join(",", v)));
        String canonicalRequest = SigV4.canonicalRequest("PUT", "/b/k", "", canonical, SigV4.UNSIGNED_PAYLOAD);
        String sig = SigV4.sign(key(), SigV4.stringToSign(AMZ_DATE, SCOPE, canonicalRequest));
        Map<String, List<String>> all = new LinkedHashMap<>(signed);
        all.putAll(sent);
        all.put("authorization", List.of(SigV4.ALGORITHM + " Credential=" + CRED.accessKeyId() + "/" + SCOPE
                + ",SignedHeaders=" + String.join(";", canonical.keySet()) + ",Signature=" + sig));
        return new SignedRequest("PUT", "/b/k", List.of(), all);
    }

    private static SignedRequest presignedPut(Map<String, List<String>> sent) {
        List<Map.Entry<String, String>> q = new ArrayList<>();
        for (String[] p : new String[][] {{"X-Amz-Algorithm", SigV4.ALGORITHM},
                {"X-Amz-Credential", CRED.accessKeyId() + "/" + SCOPE}, {"X-Amz-Date", AMZ_DATE},
                {"X-Amz-Expires", "300"}, {"X-Amz-SignedHeaders", "host"}}) {
            q.add(new AbstractMap.SimpleImmutableEntry<>(p[0], p[1]));
        }
        TreeMap<String, String> canonical = new TreeMap<>(Map.of("host", "h"));
        String canonicalRequest = SigV4.canonicalRequest("PUT", "/b/k", SigV4.canonicalQuery(q), canonical,
                SigV4.UNSIGNED_PAYLOAD);
        q.add(new AbstractMap.SimpleImmutableEntry<>("X-Amz-Signature",
                SigV4.sign(key(), SigV4.stringToSign(AMZ_DATE, SCOPE, canonicalRequest))));
        Map<String, List<String>> all = new LinkedHashMap<>(headers("host", "h"));
        all.putAll(sent);
        return new SignedRequest("PUT", "/b/k", q, all);
    }

    private void assertNotSigned(SignedRequest r) {
        assertThatThrownBy(() -> verifier.verify(r)).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
            assertThat(e.getMessage()).isEqualTo("There were headers present in the request which were not signed");
        });
    }

    @Test
    void headerAuthWithEveryXAmzHeaderSignedVerifies() {
        SignedRequest r = headerSigned(headers("host", "h", "x-amz-date", AMZ_DATE, "x-amz-content-sha256",
                SigV4.UNSIGNED_PAYLOAD, "x-amz-meta-a", "1"), Map.of());
        assertThat(verifier.verify(r).credential()).isEqualTo(CRED);
    }

    @Test
    void headerAuthWithAnUnsignedXAmzHeaderIsAccessDenied() {
        SignedRequest r = headerSigned(headers("host", "h", "x-amz-date", AMZ_DATE, "x-amz-content-sha256",
                SigV4.UNSIGNED_PAYLOAD), headers("x-amz-copy-source", "/b/secret"));
        assertNotSigned(r);
    }

    @Test
    void presignedPutWithAddedCopySourceOrMetadataIsAccessDenied() {
        assertThat(verifier.verify(presignedPut(Map.of())).presigned()).isTrue();
        assertNotSigned(presignedPut(headers("x-amz-copy-source", "/b/secret")));
        assertNotSigned(presignedPut(headers("x-amz-meta-injected", "1")));
        assertNotSigned(presignedPut(headers("x-amz-checksum-crc32", "AAAAAA==")));
    }

    @Test
    void unsignedContentSha256IsToleratedAsS3DoesYetStillBindsThePayload() {
        assertThat(verifier.verify(presignedPut(headers("x-amz-content-sha256", SigV4.UNSIGNED_PAYLOAD)))
                .payloadSha256()).isNull();
        assertThatThrownBy(() -> verifier.verify(presignedPut(headers("x-amz-content-sha256", SigV4.EMPTY_SHA256))))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.error()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
    }

    @Test
    void nonAsciiValueVerifiesWhetherSentAsIso88591OrUtf8Bytes() {
        String value = "Hello World\u00e9 \u4e2d";
        Map<String, List<String>> signed = headers("host", "h", "x-amz-date", AMZ_DATE, "x-amz-content-sha256",
                SigV4.UNSIGNED_PAYLOAD, "x-amz-meta-meta1", value);
        // Go sends the UTF-8 bytes; the HTTP decoder hands over one character per byte
        String utf8OnTheWire = new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        assertThat(verifier.verify(headerSigned(signed, headers("x-amz-meta-meta1", utf8OnTheWire))).credential())
                .isEqualTo(CRED);
        // Python's http.client and Apache HttpClient send one ISO-8859-1 byte per character (é only)
        String latin = "Hello World\u00e9";
        Map<String, List<String>> signedLatin = headers("host", "h", "x-amz-date", AMZ_DATE, "x-amz-content-sha256",
                SigV4.UNSIGNED_PAYLOAD, "x-amz-meta-meta1", latin);
        assertThat(verifier.verify(headerSigned(signedLatin, Map.of())).credential()).isEqualTo(CRED);
    }
}

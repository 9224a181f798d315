package io.coffer.gateway.auth;

import static io.coffer.gateway.auth.RequestParts.headers;
import static io.coffer.gateway.auth.RequestParts.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;

/** Signature Version 2 requests built and signed here: what is accepted, and each refusal with S3's error. */
class SigV2VerifierTest {
    static final Credential CRED = new Credential("AKV2TEST", "secret/v2+key", "tenant");
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final String DATE = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.atZone(ZoneOffset.UTC));

    private static RequestAuthenticator authenticator(boolean acceptSigV2) {
        return new RequestAuthenticator(CredentialStore.of(CRED), Clock.fixed(NOW, ZoneOffset.UTC), acceptSigV2);
    }

    /** A header-signed request: {@code signed} are the headers covered, {@code extra} are added after signing. */
    private static SignedRequest headerSigned(String method, String rawPath, List<Map.Entry<String, String>> query,
                                              Map<String, List<String>> signed, Map<String, List<String>> extra) {
        String sts = SigV2.stringToSign(method, first(signed, "content-md5"), first(signed, "content-type"),
                signed.containsKey("x-amz-date") ? "" : first(signed, "date"), SigV2.canonicalAmzHeaders(signed),
                SigV2.canonicalResource(null, rawPath, query));
        Map<String, List<String>> all = new LinkedHashMap<>(signed);
        all.putAll(extra);
        all.put("authorization", List.of("AWS " + CRED.accessKeyId() + ":" + SigV2.sign(CRED.secretKey(), sts)));
        return new SignedRequest(method, SigV4.percentDecode(rawPath, false), query, all, rawPath, null);
    }

    private static SignedRequest querySigned(String method, String rawPath, long expires,
                                             Map<String, List<String>> headers) {
        String sts = SigV2.stringToSign(method, null, null, Long.toString(expires), "",
                SigV2.canonicalResource(null, rawPath, List.of()));
        return new SignedRequest(method, SigV4.percentDecode(rawPath, false), query("AWSAccessKeyId",
                CRED.accessKeyId(), "Expires", Long.toString(expires), "Signature", SigV2.sign(CRED.secretKey(), sts)),
                headers, rawPath, null);
    }

    private static String first(Map<String, List<String>> h, String name) {
        return h.containsKey(name) ? h.get(name).get(0) : null;
    }

    private static void assertS3Error(ThrowableAssert.ThrowingCallable call, S3ErrorCode code, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.error()).isEqualTo(code);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void headerAuthWithSubresourcesAndAmzHeadersVerifies() {
        SignedRequest r = headerSigned("PUT", "/b/a%20key", query("partNumber", "2", "uploadId", "u1", "x-id",
                "UploadPart"), headers("date", DATE, "content-type", "text/plain", "x-amz-meta-a", "1"), Map.of());
        AuthResult result = authenticator(true).verify(r);
        assertThat(result.credential()).isEqualTo(CRED);
        assertThat(result.authParams()).isEmpty();
        assertThat(SigV2.canonicalResource(null, r.rawPath(), r.query())).isEqualTo("/b/a%20key?partNumber=2&uploadId=u1");
    }

    @Test
    void pathStyleBucketResourceEndsInASlashAsBotocoreSignsIt() {
        assertThat(SigV2.canonicalResource(null, "/bkt", List.of(Map.entry("versioning", "")))).isEqualTo("/bkt/?versioning");
        assertThat(SigV2.canonicalResource(null, "/bkt/", List.of())).isEqualTo("/bkt/");
        assertThat(SigV2.canonicalResource("bkt", "/", List.of())).isEqualTo("/bkt/");
        assertThat(SigV2.canonicalResource(null, "/", List.of())).isEqualTo("/");
    }

    @Test
    void xAmzDateReplacesTheDateLine() {
        SignedRequest r = headerSigned("GET", "/b/k", List.of(), headers("x-amz-date", DATE,
                "date", "Thu, 01 Jan 1970 00:00:00 GMT"), Map.of());
        assertThat(authenticator(true).verify(r).credential()).isEqualTo(CRED);
    }

    @Test
    void wrongSignatureIsSignatureDoesNotMatch() {
        SignedRequest good = headerSigned("GET", "/b/k", List.of(), headers("date", DATE), Map.of());
        Map<String, List<String>> h = new LinkedHashMap<>(good.headers());
        h.put("authorization", List.of("AWS " + CRED.accessKeyId() + ":AAAAAAAAAAAAAAAAAAAAAAAAAAA="));
        SignedRequest bad = new SignedRequest("GET", "/b/k", List.of(), h, "/b/k", null);
        assertS3Error(() -> authenticator(true).verify(bad), S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "");
        SignedRequest otherKey = new SignedRequest("GET", "/b/other", List.of(), good.headers(), "/b/other", null);
        assertS3Error(() -> authenticator(true).verify(otherKey), S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "");
    }

    @Test
    void addedXAmzHeaderBreaksTheSignature() {
        SignedRequest r = headerSigned("PUT", "/b/k", List.of(), headers("date", DATE),
                headers("x-amz-copy-source", "/b/secret"));
        assertS3Error(() -> authenticator(true).verify(r), S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "");
    }

    @Test
    void dateFarFromNowIsRequestTimeTooSkewed() {
        String old = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.minusSeconds(16 * 60).atZone(ZoneOffset.UTC));
        SignedRequest r = headerSigned("GET", "/b/k", List.of(), headers("date", old), Map.of());
        assertS3Error(() -> authenticator(true).verify(r), S3ErrorCode.REQUEST_TIME_TOO_SKEWED, "");
        SignedRequest noDate = headerSigned("GET", "/b/k", List.of(), headers(), Map.of());
        assertS3Error(() -> authenticator(true).verify(noDate), S3ErrorCode.ACCESS_DENIED, "valid Date");
    }

    /** ceph/s3-tests sends dates whose weekday is wrong for the date; S3 reads the date and answers the skew. */
    @Test
    void aDateWithTheWrongWeekdayIsReadFarOnesAreRequestTimeTooSkewedAndOnesBefore1970AccessDenied() {
        for (String date : List.of("Tue, 07 Jul 2010 21:53:04 GMT", "Tue, 07 Jul 9999 21:53:04 GMT")) {
            SignedRequest r = headerSigned("PUT", "/b/k", List.of(), headers("x-amz-date", date), Map.of());
            assertS3Error(() -> authenticator(true).verify(r), S3ErrorCode.REQUEST_TIME_TOO_SKEWED, "");
        }
        SignedRequest beforeEpoch = headerSigned("PUT", "/b/k", List.of(),
                headers("x-amz-date", "Tue, 07 Jul 1950 21:53:04 GMT"), Map.of());
        assertS3Error(() -> authenticator(true).verify(beforeEpoch), S3ErrorCode.ACCESS_DENIED, "valid Date");
        String nowWrongDay = DateTimeFormatter.ofPattern("dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
                .format(NOW.atZone(ZoneOffset.UTC));
        String weekday = NOW.atZone(ZoneOffset.UTC).getDayOfWeek() == DayOfWeek.MONDAY ? "Tue" : "Mon";
        SignedRequest r = headerSigned("PUT", "/b/k", List.of(), headers("date", weekday + ", " + nowWrongDay),
                Map.of());
        assertThat(authenticator(true).verify(r)).isNotNull();
    }

    @Test
    void queryAuthVerifiesUntilExpiresThenIsRequestHasExpired() {
        SignedRequest valid = querySigned("GET", "/b/k", NOW.getEpochSecond() + 60, Map.of());
        AuthResult result = authenticator(true).verify(valid);
        assertThat(result.presigned()).isTrue();
        assertThat(result.authParams()).contains("AWSAccessKeyId", "Signature", "Expires");
        SignedRequest expired = querySigned("GET", "/b/k", NOW.getEpochSecond() - 1, Map.of());
        assertS3Error(() -> authenticator(true).verify(expired), S3ErrorCode.ACCESS_DENIED, "Request has expired");
    }

    @Test
    void queryAuthRefusesAnAddedXAmzHeader() {
        SignedRequest r = querySigned("PUT", "/b/k", NOW.getEpochSecond() + 60, headers("x-amz-meta-injected", "1"));
        assertS3Error(() -> authenticator(true).verify(r), S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "");
    }

    @Test
    void queryAuthTakesSignedXAmzParametersAsHeaders() {
        long expires = NOW.getEpochSecond() + 60;
        String sts = SigV2.stringToSign("PUT", null, "text/plain", Long.toString(expires),
                "x-amz-meta-a:1\n", "/b/k");
        SignedRequest r = new SignedRequest("PUT", "/b/k", query("AWSAccessKeyId", CRED.accessKeyId(), "Expires",
                Long.toString(expires), "content-type", "text/plain", "x-amz-meta-a", "1", "Signature",
                SigV2.sign(CRED.secretKey(), sts).replace('+', ' ')), Map.of(), "/b/k", null);
        AuthResult result = authenticator(true).verify(r);
        assertThat(result.authParams()).contains("content-type", "x-amz-meta-a");
        assertThat(result.queryHeaders()).isEqualTo(Map.of("content-type", "text/plain", "x-amz-meta-a", "1"));
    }

    @Test
    void turnedOffSigV2IsAccessDeniedSayingSo() {
        SignedRequest header = headerSigned("GET", "/b/k", List.of(), headers("date", DATE), Map.of());
        assertS3Error(() -> authenticator(false).verify(header), S3ErrorCode.ACCESS_DENIED,
                "Signature Version 2 is turned off");
        SignedRequest query = querySigned("GET", "/b/k", NOW.getEpochSecond() + 60, Map.of());
        assertS3Error(() -> authenticator(false).verify(query), S3ErrorCode.ACCESS_DENIED,
                "Signature Version 2 is turned off");
    }

    @Test
    void malformedHeaderAndMixedMechanismsAreRefused() {
        SignedRequest noColon = new SignedRequest("GET", "/b/k", List.of(), headers("date", DATE, "authorization",
                "AWS AKV2TEST"), "/b/k", null);
        assertS3Error(() -> authenticator(true).verify(noColon), S3ErrorCode.INVALID_ARGUMENT, "AwsAccessKeyId");
        SignedRequest both = new SignedRequest("GET", "/b/k", query("Signature", "x"), headers("date", DATE,
                "authorization", "AWS AKV2TEST:x"), "/b/k", null);
        assertS3Error(() -> authenticator(true).verify(both), S3ErrorCode.INVALID_ARGUMENT, "Only one auth");
        SignedRequest unknown = headerSigned("GET", "/b/k", List.of(), headers("date", DATE), Map.of());
        Map<String, List<String>> h = new LinkedHashMap<>(unknown.headers());
        h.put("authorization", List.of(h.get("authorization").get(0).replace("AKV2TEST", "AKNOBODY")));
        assertS3Error(() -> authenticator(true).verify(new SignedRequest("GET", "/b/k", List.of(), h, "/b/k", null)),
                S3ErrorCode.INVALID_ACCESS_KEY_ID, "");
    }
}

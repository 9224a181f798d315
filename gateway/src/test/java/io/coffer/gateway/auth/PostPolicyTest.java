package io.coffer.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** POST Object policy documents: what they allow, and the errors for malformed and unmet ones. */
class PostPolicyTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    static String b64(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    static final String POLICY = b64("{\"expiration\": \"2026-03-01T13:00:00.000Z\", \"conditions\": ["
            + "{\"bucket\": \"forms\"}, [\"starts-with\", \"$key\", \"uploads/\"], {\"acl\": \"private\"},"
            + " [\"eq\", \"$Content-Type\", \"text/plain\"], [\"starts-with\", \"$x-amz-meta-note\", \"\"],"
            + " [\"content-length-range\", 10, 1000], {\"x-amz-credential\": \"AK/20260301/us-east-1/s3/aws4_request\"}"
            + "]}");

    static Map<String, String> fields() {
        Map<String, String> f = new HashMap<>();
        f.put("bucket", "forms");
        f.put("key", "uploads/a.txt");
        f.put("acl", "private");
        f.put("content-type", "text/plain");
        f.put("policy", POLICY);
        f.put("x-amz-signature", "00");
        f.put("x-amz-credential", "AK/20260301/us-east-1/s3/aws4_request");
        f.put("x-ignore-this", "anything");
        return f;
    }

    @Test
    void aFormThatMeetsEveryConditionPassesAndTheLengthRangeIsKept() {
        PostPolicy p = PostPolicy.parse(POLICY);
        p.check(NOW, fields());
        assertThat(p.minLength()).isEqualTo(10);
        assertThat(p.maxLength()).isEqualTo(1000);
        Map<String, String> withNote = fields();
        withNote.put("x-amz-meta-note", "free text");
        p.check(NOW, withNote);
        PostPolicy unbounded = PostPolicy.parse(b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": []}"));
        assertThat(unbounded.minLength()).isZero();
        assertThat(unbounded.maxLength()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void unmetConditionsExtraFieldsAndExpiryAreAccessDenied() {
        PostPolicy p = PostPolicy.parse(POLICY);
        Map<String, String> wrongKey = fields();
        wrongKey.put("key", "elsewhere/a.txt");
        assertDenied(() -> p.check(NOW, wrongKey),
                "Policy Condition failed: [\"starts-with\", \"$key\", \"uploads/\"]");
        Map<String, String> wrongBucket = fields();
        wrongBucket.put("bucket", "other");
        assertDenied(() -> p.check(NOW, wrongBucket), "Policy Condition failed");
        Map<String, String> noType = fields();
        noType.remove("content-type");
        assertDenied(() -> p.check(NOW, noType), "Policy Condition failed");
        Map<String, String> extra = fields();
        extra.put("x-amz-meta-unlisted", "v");
        assertDenied(() -> p.check(NOW, extra), "Extra input fields: x-amz-meta-unlisted");
        assertDenied(() -> p.check(Instant.parse("2026-03-01T13:00:00Z"), fields()), "Policy expired");
    }

    @Test
    void malformedPoliciesAreInvalidPolicyDocument() {
        for (String bad : new String[] {"%%% not base64 %%%", b64("not json"), b64("[]"),
            b64("{\"conditions\": []}"), b64("{\"expiration\": \"tomorrow\", \"conditions\": []}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\"}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": [[\"matches\", \"$key\", \".*\"]]}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": [[\"eq\", \"key\", \"k\"]]}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": [{\"a\": \"1\", \"b\": \"2\"}]}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": [[\"content-length-range\", 5, 1]]}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": [[\"content-length-range\", \"a\", 1]]}"),
            b64("{\"expiration\": \"2026-03-02T00:00:00Z\", \"conditions\": [\"eq\"]}")}) {
            assertThatThrownBy(() -> PostPolicy.parse(bad)).as(bad).isInstanceOfSatisfying(S3Exception.class,
                    e -> assertThat(e.error()).isEqualTo(S3ErrorCode.INVALID_POLICY_DOCUMENT));
        }
    }

    static void assertDenied(Runnable r, String message) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
            assertThat(e.getMessage()).startsWith("Invalid according to Policy").contains(message);
        });
    }
}

package io.coffer.gateway.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.SigV2;
import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * POST Object through plain HTTP form posts on the real engine: V4 and V2 signed policies, the response a form asks
 * for, policy conditions and content-length-range enforced with nothing stored, forged signatures, malformed and
 * oversize forms, and unsigned forms only where the bucket grants public WRITE.
 */
class PostObjectTest {
    static final String BOUNDARY = "CofferFormBoundary";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withPublicAccessTenants("tenant");

    @BeforeAll
    static void buckets() {
        gateway.client().createBucket(b -> b.bucket("forms"));
        gateway.client().createBucket(b -> b.bucket("forms-open").acl(BucketCannedACL.PUBLIC_READ_WRITE));
    }

    static String policy(String... conditions) {
        String json = "{\"expiration\": \"" + Instant.now().plusSeconds(600) + "\", \"conditions\": ["
                + String.join(", ", conditions) + "]}";
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The V4 fields for {@code policy} signed with {@code secret}; the policy must name x-amz-* fields it adds. */
    static Map<String, String> signedV4(String policy, String secret) {
        String date = DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.UTC).format(Instant.now());
        Map<String, String> f = new LinkedHashMap<>();
        f.put("x-amz-algorithm", "AWS4-HMAC-SHA256");
        f.put("x-amz-credential", gateway.accessKeyId() + "/" + date + "/us-east-1/s3/aws4_request");
        f.put("x-amz-date", date + "T000000Z");
        f.put("policy", policy);
        f.put("x-amz-signature", SigV4.sign(SigV4.signingKey(secret, date, "us-east-1", "s3"), policy));
        return f;
    }

    static final String V4_FIELDS = "[\"starts-with\", \"$x-amz-algorithm\", \"\"], [\"starts-with\","
            + " \"$x-amz-credential\", \"\"], [\"starts-with\", \"$x-amz-date\", \"\"]";

    static byte[] form(Map<String, String> fields, String filename, byte[] file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Map.Entry<String, String> f : fields.entrySet()) {
            out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + f.getKey()
                    + "\"\r\n\r\n" + f.getValue() + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(file);
        out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    static HttpResponse<String> post(String bucket, byte[] body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.endpoint() + "/" + bucket))
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String read(String bucket, String key) {
        return gateway.client().getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String();
    }

    static boolean exists(String bucket, String key) {
        return !gateway.client().listObjectsV2(r -> r.bucket(bucket).prefix(key)).contents().isEmpty();
    }

    @Test
    void aV4SignedFormStoresTheFileWithTheFieldsAsHeaders() throws Exception {
        String p = policy("{\"bucket\": \"forms\"}", "[\"starts-with\", \"$key\", \"user/\"]",
                "{\"content-type\": \"text/plain\"}", "[\"starts-with\", \"$x-amz-meta-tag\", \"\"]",
                "{\"acl\": \"public-read\"}", V4_FIELDS);
        Map<String, String> f = new LinkedHashMap<>();
        f.put("key", "user/${filename}");
        f.put("Content-Type", "text/plain");
        f.put("x-amz-meta-tag", "from a form");
        f.put("acl", "public-read");
        f.putAll(signedV4(p, gateway.secretKey()));
        HttpResponse<String> r = post("forms", form(f, "hello.txt", "hello form".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(r.headers().firstValue("ETag")).isPresent();
        assertThat(r.headers().firstValue("Location")).contains("/forms/user/hello.txt");
        assertThat(read("forms", "user/hello.txt")).isEqualTo("hello form");
        var head = gateway.client().headObject(h -> h.bucket("forms").key("user/hello.txt"));
        assertThat(head.contentType()).isEqualTo("text/plain");
        assertThat(head.metadata()).containsEntry("tag", "from a form");
        assertThat(gateway.client().getObjectAcl(a -> a.bucket("forms").key("user/hello.txt")).grants()).hasSize(2);
    }

    @Test
    void thePolicysKeyConditionHoldsForTheKeyWithTheFilenameReplaced() throws Exception {
        String p = policy("{\"bucket\": \"forms\"}", "[\"starts-with\", \"$key\", \"report\"]", V4_FIELDS);
        Map<String, String> f = new LinkedHashMap<>();
        f.put("key", "${filename}");
        f.putAll(signedV4(p, gateway.secretKey()));
        HttpResponse<String> r = post("forms", form(f, "report.txt",
                "named by its file".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(read("forms", "report.txt")).isEqualTo("named by its file");

        Map<String, String> other = new LinkedHashMap<>();
        other.put("key", "${filename}");
        other.putAll(signedV4(p, gateway.secretKey()));
        HttpResponse<String> refused = post("forms", form(other, "other.txt", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("<Code>AccessDenied</Code>");
        assertThat(exists("forms", "other.txt")).isFalse();
    }

    @Test
    void successActionStatusAndRedirectShapeTheAnswer() throws Exception {
        String p = policy("{\"bucket\": \"forms\"}", "[\"starts-with\", \"$key\", \"\"]",
                "[\"starts-with\", \"$success_action_status\", \"\"]",
                "[\"starts-with\", \"$success_action_redirect\", \"\"]", V4_FIELDS);
        Map<String, String> created = new LinkedHashMap<>(Map.of("key", "status-201", "success_action_status", "201"));
        created.putAll(signedV4(p, gateway.secretKey()));
        HttpResponse<String> r = post("forms", form(created, "a", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).isEqualTo(201);
        // S3's PostResponse has no namespace (clients read it with a plain find('Key'), as ceph/s3-tests does)
        assertThat(r.body()).contains("<PostResponse>").doesNotContain("xmlns").contains("<Bucket>forms</Bucket>")
                .contains("<Key>status-201</Key>").contains("<ETag>");
        Map<String, String> redirected = new LinkedHashMap<>(Map.of("key", "redirected",
                "success_action_redirect", "https://example.com/done?x=1"));
        redirected.putAll(signedV4(p, gateway.secretKey()));
        r = post("forms", form(redirected, "a", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location").orElseThrow())
                .startsWith("https://example.com/done?x=1&bucket=forms&key=redirected&etag=");
        assertThat(read("forms", "redirected")).isEqualTo("x");
    }

    @Test
    void aV2SignedFormIsAccepted() throws Exception {
        String p = policy("{\"bucket\": \"forms\"}", "{\"key\": \"v2-object\"}");
        Map<String, String> f = new LinkedHashMap<>();
        f.put("key", "v2-object");
        f.put("AWSAccessKeyId", gateway.accessKeyId());
        f.put("policy", p);
        f.put("signature", SigV2.sign(gateway.secretKey(), p));
        HttpResponse<String> r = post("forms", form(f, "a", "v2 bytes".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(read("forms", "v2-object")).isEqualTo("v2 bytes");
    }

    @Test
    void aLargeFileStreamsThroughWithinItsLengthRange() throws Exception {
        byte[] big = new byte[6 * 1024 * 1024 + 123];
        new Random(3).nextBytes(big);
        String p = policy("{\"bucket\": \"forms\"}", "{\"key\": \"big\"}",
                "[\"content-length-range\", 1, " + (big.length + 10) + "]", V4_FIELDS);
        Map<String, String> f = new LinkedHashMap<>(Map.of("key", "big"));
        f.putAll(signedV4(p, gateway.secretKey()));
        HttpResponse<String> r = post("forms", form(f, "big.bin", big));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(gateway.client().getObjectAsBytes(g -> g.bucket("forms").key("big")).asByteArray())
                .isEqualTo(big);
    }

    @Test
    void policyViolationsAndSizeLimitsStoreNothing() throws Exception {
        String p = policy("{\"bucket\": \"forms\"}", "[\"starts-with\", \"$key\", \"allowed/\"]",
                "[\"content-length-range\", 5, 10]", V4_FIELDS);
        assertRefused(p, Map.of("key", "elsewhere/k"), "x".repeat(6), 403, "AccessDenied",
                "Invalid according to Policy");
        assertRefused(p, Map.of("key", "allowed/large"), "x".repeat(11), 400, "EntityTooLarge", null);
        assertRefused(p, Map.of("key", "allowed/small"), "x".repeat(4), 400, "EntityTooSmall", null);
        assertRefused(p, Map.of("key", "allowed/extra", "x-amz-meta-unlisted", "v"), "x".repeat(6), 403,
                "AccessDenied", "Extra input fields");
        String expired = Base64.getEncoder().encodeToString(("{\"expiration\": \"2020-01-01T00:00:00Z\","
                + " \"conditions\": [[\"starts-with\", \"$key\", \"\"], " + V4_FIELDS + "]}")
                .getBytes(StandardCharsets.UTF_8));
        assertRefused(expired, Map.of("key", "allowed/expired"), "x".repeat(6), 403, "AccessDenied",
                "Policy expired");
        assertRefused(Base64.getEncoder().encodeToString("{not json".getBytes(StandardCharsets.UTF_8)),
                Map.of("key", "allowed/badjson"), "x".repeat(6), 400, "InvalidPolicyDocument", null);
        assertThat(exists("forms", "allowed/")).isFalse();
    }

    @Test
    void forgedSignaturesAndForeignBucketsAreRefused() throws Exception {
        String p = policy("[\"starts-with\", \"$key\", \"\"]", V4_FIELDS);
        Map<String, String> forged = new LinkedHashMap<>(Map.of("key", "forged"));
        forged.putAll(signedV4(p, "not-the-secret"));
        HttpResponse<String> r = post("forms", form(forged, "a", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("<Code>SignatureDoesNotMatch</Code>");
        Map<String, String> unsigned = new LinkedHashMap<>(Map.of("key", "unsigned"));
        r = post("forms", form(unsigned, "a", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("<Code>AccessDenied</Code>");
        assertThat(exists("forms", "forged")).isFalse();
        assertThat(exists("forms", "unsigned")).isFalse();
    }

    @Test
    void anUnsignedFormUploadsOnlyToAPublicReadWriteBucket() throws Exception {
        HttpResponse<String> r = post("forms-open", form(Map.of("key", "anonymous"), "a",
                "open bytes".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(read("forms-open", "anonymous")).isEqualTo("open bytes");
    }

    @Test
    void malformedAndOversizeFormsAreRefused() throws Exception {
        HttpResponse<String> r = post("forms",
                "--CofferFormBoundary\r\nno headers end".getBytes(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("<Code>MalformedPOSTRequest</Code>");
        Map<String, String> huge = new LinkedHashMap<>();
        huge.put("key", "huge");
        huge.put("x-ignore-padding", "p".repeat(70 * 1024));
        r = post("forms", form(huge, "a", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("<Code>MaxPostPreDataLengthExceededError</Code>");
        r = post("forms", form(Map.of("acl", "private"), "a", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("<Code>InvalidArgument</Code>");
        assertThat(exists("forms", "huge")).isFalse();
    }

    static void assertRefused(String policy, Map<String, String> fields, String file, int status, String code,
                              String message) throws Exception {
        Map<String, String> f = new LinkedHashMap<>(fields);
        f.putAll(signedV4(policy, gateway.secretKey()));
        HttpResponse<String> r = post("forms", form(f, "a", file.getBytes(StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.body()).contains("<Code>" + code + "</Code>");
        if (message != null) {
            assertThat(r.body()).contains(message);
        }
    }
}

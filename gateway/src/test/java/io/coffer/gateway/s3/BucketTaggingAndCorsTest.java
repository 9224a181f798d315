package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.GetBucketCorsResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Bucket tagging and CORS through the AWS SDK v2 on the real engine, and CORS preflights as a browser sends them (raw
 * HTTP, no credentials): rules stored with the bucket, preflights answered per the rules, Access-Control-* headers on
 * actual requests from an allowed origin.
 */
class BucketTaggingAndCorsTest {
    static final Credential OTHER = new Credential("CORSOTHERKEY", "cors-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    static final String TAGGED = "bucket-tags";
    static final String WEB = "web-cors";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void buckets() {
        gateway.client().createBucket(b -> b.bucket(TAGGED));
        gateway.client().createBucket(b -> b.bucket(WEB));
        gateway.client().putObject(r -> r.bucket(WEB).key("page.html"), RequestBody.fromString("<html/>"));
    }

    @Test
    void bucketTagsArePutReadReplacedAndDeleted(S3Client s3) {
        assertError(() -> s3.getBucketTagging(r -> r.bucket(TAGGED)), 404, "NoSuchTagSet");
        s3.putBucketTagging(r -> r.bucket(TAGGED).tagging(t -> t.tagSet(
                Tag.builder().key("team").value("storage").build(), Tag.builder().key("cost").value("42").build())));
        assertThat(s3.getBucketTagging(r -> r.bucket(TAGGED)).tagSet()).extracting(t -> t.key() + "=" + t.value())
                .containsExactlyInAnyOrder("team=storage", "cost=42");
        s3.putBucketTagging(r -> r.bucket(TAGGED).tagging(t -> t.tagSet(Tag.builder().key("only").value("").build())));
        assertThat(s3.getBucketTagging(r -> r.bucket(TAGGED)).tagSet()).extracting(Tag::key).containsExactly("only");

        List<Tag> fiftyOne = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            fiftyOne.add(Tag.builder().key("k" + i).value("v").build());
        }
        assertError(() -> s3.putBucketTagging(r -> r.bucket(TAGGED).tagging(t -> t.tagSet(fiftyOne))), 400,
                "InvalidTag");
        s3.putBucketTagging(r -> r.bucket(TAGGED).tagging(t -> t.tagSet(fiftyOne.subList(0, 50))));
        assertThat(s3.getBucketTagging(r -> r.bucket(TAGGED)).tagSet()).hasSize(50);

        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.getBucketTagging(r -> r.bucket(TAGGED)), 403, "AccessDenied");
            assertError(() -> other.deleteBucketTagging(r -> r.bucket(TAGGED)), 403, "AccessDenied");
        }
        s3.deleteBucketTagging(r -> r.bucket(TAGGED));
        assertError(() -> s3.getBucketTagging(r -> r.bucket(TAGGED)), 404, "NoSuchTagSet");
    }

    @Test
    void corsRulesArePutReadAndDeletedAndInvalidOnesRefused(S3Client s3) throws Exception {
        String bucket = "cors-config";
        s3.createBucket(b -> b.bucket(bucket));
        assertError(() -> s3.getBucketCors(r -> r.bucket(bucket)), 404, "NoSuchCORSConfiguration");
        s3.putBucketCors(r -> r.bucket(bucket).corsConfiguration(c -> c.corsRules(CORSRule.builder().id("one")
                .allowedOrigins("https://a.example").allowedMethods("GET", "HEAD").allowedHeaders("*")
                .exposeHeaders("ETag").maxAgeSeconds(600).build())));
        GetBucketCorsResponse got = s3.getBucketCors(r -> r.bucket(bucket));
        assertThat(got.corsRules()).hasSize(1);
        CORSRule rule = got.corsRules().get(0);
        assertThat(rule.id()).isEqualTo("one");
        assertThat(rule.allowedOrigins()).containsExactly("https://a.example");
        assertThat(rule.allowedMethods()).containsExactly("GET", "HEAD");
        assertThat(rule.allowedHeaders()).containsExactly("*");
        assertThat(rule.exposeHeaders()).containsExactly("ETag");
        assertThat(rule.maxAgeSeconds()).isEqualTo(600);

        assertError(() -> s3.putBucketCors(r -> r.bucket(bucket).corsConfiguration(c -> c.corsRules(CORSRule
                .builder().allowedOrigins("*").allowedMethods("PATCH").build()))), 400, "InvalidRequest");
        assertThat(s3.getBucketCors(r -> r.bucket(bucket)).corsRules().get(0).id()).isEqualTo("one");
        s3.deleteBucketCors(r -> r.bucket(bucket));
        assertError(() -> s3.getBucketCors(r -> r.bucket(bucket)), 404, "NoSuchCORSConfiguration");
        assertThat(preflight(bucket, "page", Map.of("Origin", "https://a.example",
                "Access-Control-Request-Method", "GET")).statusCode()).isEqualTo(403);
    }

    @Test
    void preflightsAreAnsweredPerTheRulesWithoutCredentials(S3Client s3) throws Exception {
        String web = "web-preflight";
        s3.createBucket(b -> b.bucket(web));
        HttpResponse<String> none = preflight(web, "page.html", Map.of("Origin", "https://app.example.com",
                "Access-Control-Request-Method", "GET"));
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(none.body()).contains("<Code>CORSResponse</Code>", "CORS is not enabled for this bucket");

        s3.putBucketCors(r -> r.bucket(web).corsConfiguration(c -> c.corsRules(
                CORSRule.builder().allowedOrigins("https://*.example.com").allowedMethods("GET", "PUT")
                        .allowedHeaders("content-type", "x-amz-*").exposeHeaders("ETag", "x-amz-request-id")
                        .maxAgeSeconds(3000).build(),
                CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())));

        HttpResponse<String> put = preflight(web, "upload.bin", Map.of("Origin", "https://app.example.com",
                "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "Content-Type, X-Amz-Date"));
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(header(put, "access-control-allow-origin")).isEqualTo("https://app.example.com");
        assertThat(header(put, "access-control-allow-methods")).isEqualTo("GET, PUT");
        assertThat(header(put, "access-control-allow-headers")).isEqualTo("Content-Type, X-Amz-Date");
        assertThat(header(put, "access-control-expose-headers")).isEqualTo("ETag, x-amz-request-id");
        assertThat(header(put, "access-control-max-age")).isEqualTo("3000");
        assertThat(header(put, "access-control-allow-credentials")).isEqualTo("true");

        // any origin may GET (second rule): answered with *, and no credentials
        HttpResponse<String> anyGet = preflight(web, null, Map.of("Origin", "https://elsewhere.org",
                "Access-Control-Request-Method", "GET"));
        assertThat(anyGet.statusCode()).isEqualTo(200);
        assertThat(header(anyGet, "access-control-allow-origin")).isEqualTo("*");
        assertThat(anyGet.headers().firstValue("access-control-allow-credentials")).isEmpty();

        for (Map<String, String> refused : List.of(
                Map.of("Origin", "https://elsewhere.org", "Access-Control-Request-Method", "PUT"),
                Map.of("Origin", "https://app.example.com", "Access-Control-Request-Method", "DELETE"),
                Map.of("Origin", "https://app.example.com", "Access-Control-Request-Method", "PUT",
                        "Access-Control-Request-Headers", "authorization"))) {
            HttpResponse<String> r = preflight(web, "page.html", refused);
            assertThat(r.statusCode()).as(refused.toString()).isEqualTo(403);
            assertThat(r.body()).contains("<Code>CORSResponse</Code>", "This CORS request is not allowed");
            assertThat(r.headers().firstValue("access-control-allow-origin")).isEmpty();
        }
        assertThat(preflight(web, "page.html", Map.of("Access-Control-Request-Method", "GET")).statusCode())
                .isEqualTo(400);
        assertThat(preflight(web, "page.html", Map.of("Origin", "https://app.example.com")).statusCode())
                .isEqualTo(400);
        HttpResponse<String> missing = preflight("no-such-bucket-here", "k", Map.of("Origin", "https://a.example.com",
                "Access-Control-Request-Method", "GET"));
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    @Test
    void actualRequestsFromAnAllowedOriginCarryTheCorsHeaders(S3Client s3) {
        s3.putBucketCors(r -> r.bucket(WEB).corsConfiguration(c -> c.corsRules(
                CORSRule.builder().allowedOrigins("https://*.example.com").allowedMethods("GET", "PUT")
                        .allowedHeaders("*").exposeHeaders("ETag").build())));
        SdkHttpResponse allowed = s3.getObjectAsBytes(r -> r.bucket(WEB).key("page.html")
                .overrideConfiguration(o -> o.putHeader("Origin", "https://app.example.com"))).response()
                .sdkHttpResponse();
        assertThat(allowed.firstMatchingHeader("Access-Control-Allow-Origin")).contains("https://app.example.com");
        assertThat(allowed.firstMatchingHeader("Access-Control-Expose-Headers")).contains("ETag");
        SdkHttpResponse other = s3.getObjectAsBytes(r -> r.bucket(WEB).key("page.html")
                .overrideConfiguration(o -> o.putHeader("Origin", "https://evil.org"))).response().sdkHttpResponse();
        assertThat(other.firstMatchingHeader("Access-Control-Allow-Origin")).isEmpty();
        SdkHttpResponse plain = s3.getObjectAsBytes(r -> r.bucket(WEB).key("page.html")).response()
                .sdkHttpResponse();
        assertThat(plain.firstMatchingHeader("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void errorsOfRequestsFromAnAllowedOriginCarryTheCorsHeadersToo(S3Client s3) throws Exception {
        String b = "web-cors-errors";
        s3.createBucket(r -> r.bucket(b));
        s3.putBucketCors(r -> r.bucket(b).corsConfiguration(c -> c.corsRules(
                CORSRule.builder().allowedOrigins("https://*.example.com").allowedMethods("GET", "PUT").build())));
        NoSuchKeyException missing = catchThrowableOfType(() -> s3.getObjectAsBytes(r -> r.bucket(b).key("nope")
                .overrideConfiguration(o -> o.putHeader("Origin", "https://app.example.com"))),
                NoSuchKeyException.class);
        assertThat(missing.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("Access-Control-Allow-Origin"))
                .contains("https://app.example.com");

        // an anonymous PUT is refused, and the browser may read the refusal only from an allowed origin
        URI object = gateway.endpoint().resolve("/" + b + "/upload.bin");
        HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(object).PUT(HttpRequest.BodyPublishers
                .ofString("x")).header("Origin", "https://app.example.com").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(header(refused, "access-control-allow-origin")).isEqualTo("https://app.example.com");
        assertThat(header(refused, "access-control-allow-methods")).isEqualTo("GET, PUT");
        HttpResponse<String> elsewhere = HTTP.send(HttpRequest.newBuilder(object).PUT(HttpRequest.BodyPublishers
                .ofString("x")).header("Origin", "https://evil.org").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(elsewhere.statusCode()).isEqualTo(403);
        assertThat(header(elsewhere, "access-control-allow-origin")).isNull();
        assertThat(s3.listObjectsV2(r -> r.bucket(b)).contents()).as("nothing stored").isEmpty();
    }

    private static HttpResponse<String> preflight(String bucket, String key, Map<String, String> headers)
            throws Exception {
        URI uri = gateway.endpoint().resolve("/" + bucket + (key == null ? "" : "/" + key));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).method("OPTIONS", HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }
}

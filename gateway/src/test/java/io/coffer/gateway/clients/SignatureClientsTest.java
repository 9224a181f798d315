package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Stock aws-cli and boto3 on their default settings sign presigned URLs with Signature Version 2; boto3 signs
 * requests with it on request. The gateway accepts both unless told not to, refuses unsigned x-amz-* headers on
 * presigned URLs of either version, and accepts non-ASCII metadata as boto3 signs it. boto3's part runs in the test
 * resource clients/python/boto3_signatures.py, which prints what it saw as JSON; this class asserts.
 */
class SignatureClientsTest {
    private static final String BASE_DOMAIN = "s3.localhost";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withBaseDomain(BASE_DOMAIN);

    @RegisterExtension
    static CofferGatewayExtension v4Only = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withSigV2(false);

    @TempDir
    Path work;

    enum Addressing { PATH, VIRTUAL }

    private String endpoint(CofferGatewayExtension g, Addressing addressing) {
        return addressing == Addressing.PATH ? g.endpoint().toString() : "http://" + BASE_DOMAIN + ":" + g.port();
    }

    /** {@code aws s3 presign} with a config file that sets only region and addressing style, as a user has it. */
    private String awsPresign(CofferGatewayExtension g, Addressing addressing, String s3Url) throws Exception {
        Path config = work.resolve("aws-config-" + addressing);
        Files.writeString(config, "[default]\nregion = us-east-1\ns3 =\n  addressing_style = "
                + addressing.name().toLowerCase(Locale.ROOT) + "\n");
        List<String> cmd = new ArrayList<>(List.of(ExternalClients.aws().toString(), "--endpoint-url",
                endpoint(g, addressing), "s3", "presign", s3Url, "--expires-in", "300"));
        return ExternalClients.run(cmd, Map.of("AWS_ACCESS_KEY_ID", g.accessKeyId(), "AWS_SECRET_ACCESS_KEY",
                g.secretKey(), "AWS_CONFIG_FILE", config.toString()), work, Duration.ofMinutes(2))
                .requireSuccess(cmd).stdout().strip();
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void awsCliPresignedUrlOnDefaultSettingsReturnsTheObject(Addressing addressing) throws Exception {
        String bucket = "cli-presign-" + addressing.name().toLowerCase(Locale.ROOT);
        if (addressing == Addressing.VIRTUAL) {
            LoopbackHostsFile.resolveToLoopback(BASE_DOMAIN, bucket + "." + BASE_DOMAIN);
        }
        gateway.client().createBucket(b -> b.bucket(bucket));
        gateway.client().putObject(p -> p.bucket(bucket).key("dir/a b+c.txt"),
                RequestBody.fromString("presigned by aws-cli\n"));

        String url = awsPresign(gateway, addressing, "s3://" + bucket + "/dir/a b+c.txt");
        assertThat(url).as("aws-cli's default is a SigV2 URL").contains("AWSAccessKeyId=").contains("Signature=")
                .contains("Expires=").doesNotContain("X-Amz-Signature");
        assertThat(URI.create(url).getHost()).isEqualTo(addressing == Addressing.PATH ? "127.0.0.1"
                : bucket + "." + BASE_DOMAIN);
        HttpResponse<String> r = get(url);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("presigned by aws-cli\n");

        HttpResponse<String> otherKey = get(url.replace("a%20b%2Bc.txt", "other.txt"));
        assertThat(otherKey.statusCode()).isEqualTo(403);
        assertThat(otherKey.body()).contains("<Code>SignatureDoesNotMatch</Code>");
    }

    @Test
    void sigV2TurnedOffIsAccessDeniedSayingSo() throws Exception {
        v4Only.client().createBucket(b -> b.bucket("v4-only"));
        v4Only.client().putObject(p -> p.bucket("v4-only").key("k"), RequestBody.fromString("x"));
        HttpResponse<String> r = get(awsPresign(v4Only, Addressing.PATH, "s3://v4-only/k"));
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("<Code>AccessDenied</Code>").contains("Signature Version 2 is turned off");
    }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void boto3SignsWithEitherVersionAndCannotAddUnsignedHeaders(Addressing addressing) throws Exception {
        String style = addressing.name().toLowerCase(Locale.ROOT);
        String bucket = "boto3-signatures-" + style;
        String args = "{\"endpoint\": \"" + endpoint(gateway, addressing) + "\", \"bucket\": \"" + bucket
                + "\", \"addressing\": \"" + style + "\"}";
        JsonNode r = ExternalClients.boto3Script(gateway, work, "boto3_signatures.py", args, Duration.ofMinutes(3));

        assertThat(text(r, "default_presigned_url")).as("boto3's default presigned URL is SigV2")
                .contains("AWSAccessKeyId=").doesNotContain("X-Amz-Signature");
        assertResponse(r, "presigned_put", 200, "");
        assertResponse(r, "presigned_get", 200, "via a SigV2 presigned PUT\n");
        assertResponse(r, "presigned_put_meta", 200, "");
        assertThat(text(r, "presigned_put_meta_stored")).as("signed headers carried in the query apply")
                .isEqualTo("v text/x-signed");
        assertResponse(r, "presigned_put_added_meta", 403, "<Code>SignatureDoesNotMatch</Code>");
        assertResponse(r, "presigned_put_added_copy_source", 403, "<Code>SignatureDoesNotMatch</Code>");
        assertResponse(r, "presigned_get_tampered", 403, "<Code>SignatureDoesNotMatch</Code>");
        assertResponse(r, "presigned_get_expired", 403, "Request has expired");

        assertThat(text(r, "v2_get_body")).isEqualTo("signed with HMAC-SHA1\n");
        assertThat(text(r, "v2_get_meta")).isEqualTo("b");
        assertThat(text(r, "v2_multi_length")).isEqualTo("1024");
        assertThat(r.field("v2_versioning")).isPresent();
        assertThat(r.field("v2_list").orElseThrow().asArray()).extracting(JsonNode::asString)
                .containsExactly("pre signed.txt", "presigned-meta.txt", "v2 multi", "v2-header.txt");
        assertThat(text(r, "v2_wrong_secret")).isEqualTo("403 403");

        assertResponse(r, "v4_presigned_put_added_copy_source", 403,
                "There were headers present in the request which were not signed");
        assertResponse(r, "v4_presigned_put_added_meta", 403,
                "There were headers present in the request which were not signed");
        assertThat(text(r, "v4_target_after_refusals")).as("nothing stored").isEqualTo("404 404");
        assertResponse(r, "v4_presigned_put", 200, "");
        assertResponse(r, "v4_presigned_put_expired", 403, "<Code>AccessDenied</Code>");

        assertThat(text(r, "unicode_put_v4")).isEqualTo("ok");
        assertThat(text(r, "unicode_put_v2")).isEqualTo("ok");
    }

    private static void assertResponse(JsonNode result, String field, int status, String bodyContains) {
        JsonNode resp = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        String body = text(resp, "body");
        assertThat(text(resp, "status")).as(field + ": " + body).isEqualTo(Integer.toString(status));
        assertThat(body).as(field).contains(bodyContains);
    }

    private static String text(JsonNode result, String field) {
        JsonNode n = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        return n.isNumber() ? n.asNumber() : n.asString();
    }
}

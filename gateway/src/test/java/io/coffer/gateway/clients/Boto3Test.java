package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * boto3 (the venv's, default checksum behaviour) against the gateway on the real engine: upload_file and
 * download_file with threads across the multipart threshold, presigned PUT and GET used through urllib, head_object
 * ETags. The script (test resource clients/python/boto3_roundtrip.py) prints what it saw as JSON; this class asserts.
 */
class Boto3Test {
    private static final String BASE_DOMAIN = "s3.localhost";
    private static final long PART_SIZE = 8L * 1024 * 1024;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withBaseDomain(BASE_DOMAIN);

    @TempDir
    Path work;

    enum Addressing { PATH, VIRTUAL }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void uploadDownloadAndPresignedUrls(Addressing addressing) throws Exception {
        String style = addressing.name().toLowerCase(Locale.ROOT);
        String bucket = "boto3-" + style;
        String endpoint = addressing == Addressing.PATH ? gateway.endpoint().toString()
                : "http://" + BASE_DOMAIN + ":" + gateway.port();
        Path source = TestFiles.write(work.resolve("source.bin"), 51, 3 * PART_SIZE + 4321);
        Path download = work.resolve("download.bin");
        String args = "{\"endpoint\": \"" + endpoint + "\", \"bucket\": \"" + bucket + "\", \"addressing\": \""
                + style + "\", \"source\": \"" + source + "\", \"download\": \"" + download + "\", \"part_size\": "
                + PART_SIZE + "}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_roundtrip.py", args, Duration.ofMinutes(3));

        assertThat(TestFiles.unquote(text(result, "head_etag"))).as("4 parts of 8 MiB")
                .isEqualTo(TestFiles.multipartEtag(source, PART_SIZE)).endsWith("-4");
        assertThat(result.field("head_length").orElseThrow().asNumber()).isEqualTo(Long.toString(Files.size(source)));
        assertThat(TestFiles.md5Hex(download)).isEqualTo(TestFiles.md5Hex(source));

        String payload = "uploaded through a presigned PUT URL\n";
        String payloadMd5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(payload.getBytes()));
        assertThat(text(result, "presigned_put_url_host")).isEqualTo(addressing == Addressing.PATH ? "127.0.0.1"
                : bucket + "." + BASE_DOMAIN);
        assertThat(text(result, "presigned_put_status")).isEqualTo("200");
        assertThat(TestFiles.unquote(text(result, "presigned_put_etag"))).isEqualTo(payloadMd5);
        assertThat(text(result, "presigned_get_status")).isEqualTo("200");
        assertThat(text(result, "presigned_get_body")).isEqualTo(payload);
        assertThat(TestFiles.unquote(text(result, "presigned_head_etag"))).isEqualTo(payloadMd5);
        assertThat(result.field("keys").orElseThrow().asArray()).extracting(JsonNode::asString)
                .containsExactly("big.bin", "presigned.txt");
        assertThat(result.field("version_ids").orElseThrow().asArray()).extracting(JsonNode::asString)
                .containsExactly("null", "null");
        assertThat(result.field("versions_deleted").orElseThrow().asArray()).extracting(JsonNode::asString)
                .containsExactly("big.bin@null", "presigned.txt@null");
        assertThat(result.field("buckets_after_delete").orElseThrow().asArray()).extracting(JsonNode::asString)
                .doesNotContain(bucket);
    }

    private static String text(JsonNode result, String field) {
        JsonNode n = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        return n.isNumber() ? n.asNumber() : n.asString();
    }
}

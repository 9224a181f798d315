package io.coffer.gateway.clients;

import static io.coffer.gateway.clients.ScriptResults.bool;
import static io.coffer.gateway.clients.ScriptResults.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * SSE-C with boto3 against the gateway on the real engine: put, get, range, wrong and missing keys, the managed
 * transfer's multipart upload and download with a key, and a copy to another key (the script
 * clients/python/boto3_sse_c.py prints what it saw, this class asserts). The rules themselves are covered in
 * {@code s3.sse.CustomerKeyRequestsTest}.
 */
class CustomerKeyClientsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withSseCustomerOverHttp(true);

    @TempDir
    Path work;

    @Test
    void boto3StoresReadsCopiesAndUploadsInPartsUnderCustomerKeys() {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-ssec\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_sse_c.py", args, Duration.ofMinutes(3));
        assertThat(text(result, "put_algorithm")).isEqualTo("AES256");
        assertThat(bool(result, "get_equal")).isTrue();
        // base64 of MD5("A" x 32)
        assertThat(text(result, "get_key_md5")).isEqualTo(Base64.getEncoder().encodeToString(md5("A".repeat(32))));
        assertThat(text(result, "ranged")).isEqualTo("0a0b0c0d0e0f10111213");
        assertThat(text(result, "get_without_key")).isEqualTo("400/InvalidRequest");
        assertThat(text(result, "head_other_key")).startsWith("403/");
        assertThat(bool(result, "multipart_equal")).isTrue();
        assertThat(result.field("multipart_parts").orElseThrow().asNumber()).isEqualTo("3");
        assertThat(bool(result, "copy_equal")).isTrue();
        assertThat(text(result, "copy_old_key")).isEqualTo("403/AccessDenied");
    }

    private static byte[] md5(String s) {
        try {
            return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

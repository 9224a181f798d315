package io.coffer.gateway.clients;

import static io.coffer.gateway.clients.ScriptResults.bool;
import static io.coffer.gateway.clients.ScriptResults.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.s3.sse.KmsKeyring;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * SSE-KMS with boto3 against the gateway on the real engine with a keyring: put and get reporting the key id, a
 * range, an unknown key id, the managed transfer's multipart upload (parts without headers) and download, bucket
 * default encryption with aws:kms, and a copy out to SSE-S3 (the script clients/python/boto3_sse_kms.py prints what it
 * saw, this class asserts). The rules themselves are covered in {@code s3.sse.KmsRequestsTest}.
 */
class KmsClientsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withKmsKeys(keyring());

    @TempDir
    Path work;

    @Test
    void boto3StoresReadsUploadsInPartsAndCopiesUnderAKeyringKey() {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-kms\","
                + " \"key_id\": \"app-key\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_sse_kms.py", args, Duration.ofMinutes(3));
        assertThat(text(result, "put_sse")).isEqualTo("aws:kms");
        assertThat(text(result, "put_key_id")).isEqualTo("app-key");
        assertThat(bool(result, "get_equal")).isTrue();
        assertThat(text(result, "get_key_id")).isEqualTo("app-key");
        assertThat(text(result, "ranged")).isEqualTo("0a0b0c0d0e0f10111213");
        assertThat(text(result, "unknown_key")).isEqualTo("400/KMS.NotFoundException");
        assertThat(bool(result, "multipart_equal")).isTrue();
        assertThat(result.field("multipart_parts").orElseThrow().asNumber()).isEqualTo("3");
        assertThat(text(result, "multipart_key_id")).isEqualTo("app-key");
        assertThat(text(result, "default_key_id")).isEqualTo("app-key");
        assertThat(text(result, "default_put_sse")).isEqualTo("aws:kms");
        assertThat(bool(result, "copy_equal")).isTrue();
        assertThat(text(result, "copy_sse")).isEqualTo("AES256");
    }

    private static KmsKeyring keyring() {
        try {
            return KmsKeyring.parse(List.of("app-key " + Base64.getEncoder().encodeToString(new byte[32])), "test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

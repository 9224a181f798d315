package io.coffer.gateway.clients;

import static io.coffer.gateway.clients.ScriptResults.bool;
import static io.coffer.gateway.clients.ScriptResults.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.s3.sse.MotoKms;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * SSE-KMS with boto3 against the gateway with a KMS (moto's, started here): the script of {@link KmsClientsTest}
 * (clients/python/boto3_sse_kms.py) with a KMS alias, the key's ARN reported where the keyring reports its id.
 */
class KmsServiceClientsTest {
    /** The KMS's port, chosen before the gateway is made; moto starts on it before the first test. */
    private static final int KMS_PORT = port();

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withKmsKeys(MotoKms.keySource(KMS_PORT));

    @TempDir
    static Path logs;
    static MotoKms kms;

    @TempDir
    Path work;

    @BeforeAll
    static void startKms() throws Exception {
        kms = MotoKms.start(logs, KMS_PORT);
    }

    @AfterAll
    static void stopKms() throws Exception {
        if (kms != null) {
            kms.close();
        }
    }

    @Test
    void boto3StoresReadsUploadsInPartsAndCopiesUnderAKmsKey() {
        String arn = kms.createKey("alias/boto3");
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-kms-service\","
                + " \"key_id\": \"alias/boto3\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_sse_kms.py", args, Duration.ofMinutes(3));
        assertThat(text(result, "put_sse")).isEqualTo("aws:kms");
        assertThat(text(result, "put_key_id")).isEqualTo(arn);
        assertThat(bool(result, "get_equal")).isTrue();
        assertThat(text(result, "get_key_id")).isEqualTo(arn);
        assertThat(text(result, "ranged")).isEqualTo("0a0b0c0d0e0f10111213");
        assertThat(text(result, "unknown_key")).isEqualTo("400/KMS.NotFoundException");
        assertThat(bool(result, "multipart_equal")).isTrue();
        assertThat(result.field("multipart_parts").orElseThrow().asNumber()).isEqualTo("3");
        assertThat(text(result, "multipart_key_id")).isEqualTo(arn);
        assertThat(text(result, "default_key_id")).isEqualTo("alias/boto3");
        assertThat(text(result, "default_put_sse")).isEqualTo("aws:kms");
        assertThat(bool(result, "copy_equal")).isTrue();
        assertThat(text(result, "copy_sse")).isEqualTo("AES256");
    }

    private static int port() {
        try {
            return MotoKms.freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

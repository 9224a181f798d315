package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code master-key} setting: gateways with data directories of their own share one store (an S3 backend and one
 * metadata store) through one key file; a gateway with another key, or none, is refused; {@code rotate-master-key}'s
 * opener makes a new key the store's.
 */
class SharedMasterKeyTest {
    @TempDir
    Path dir;

    private S3ServerFixture s3;
    private String bucket;

    @BeforeEach
    void backend() throws Exception {
        s3 = S3ServerFixture.start();
        bucket = s3.createBucket();
    }

    @Test
    void twoGatewaysGivenOneKeyFileReadEachOthersObjects() throws Exception {
        Path keyFile = dir.resolve("keys/master.key");
        try (Coffer first = EngineOpener.open(config("a", keyFile.toString()), null)) {
            first.createBucket("bkt", "t");
            put(first, "from-a", "written by a");
            // the key file is made for the new store, owner-only, and no data directory holds one
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile))).isEqualTo("rw-------");
            try (Coffer second = EngineOpener.open(config("b", keyFile.toString()), null)) {
                put(second, "from-b", "written by b");
                assertThat(read(second, "from-a")).isEqualTo("written by a");
                assertThat(read(first, "from-b")).isEqualTo("written by b");
            }
        }
        assertThat(dir.resolve("a/master.key")).doesNotExist();
        assertThat(dir.resolve("b/master.key")).doesNotExist();
    }

    @Test
    void aGatewayWithAnotherKeyFileOrNoneIsRefused() throws Exception {
        Path keyFile = dir.resolve("master.key");
        try (Coffer first = EngineOpener.open(config("a", keyFile.toString()), null)) {
            first.createBucket("bkt", "t");
        }
        Path otherFile = dir.resolve("other.key");
        MasterKey other = MasterKey.loadOrCreate(otherFile);
        String expected = MasterKey.load(keyFile).keyIdHex();

        assertThatThrownBy(() -> EngineOpener.open(config("b", otherFile.toString()), null).close())
                .hasMessageContaining("master key " + other.keyIdHex() + " is not the key of the store")
                .hasMessageContaining("expects master key " + expected);
        assertThatThrownBy(() -> EngineOpener.open(config("c", null), null).close())
                .hasMessageContaining("no master key").hasMessageContaining("--master-key FILE");
        assertThat(dir.resolve("c/master.key")).doesNotExist();
    }

    @Test
    void aKeyFileOthersMayReadIsRefused() throws Exception {
        Path keyFile = dir.resolve("master.key");
        MasterKey.loadOrCreate(keyFile);
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> EngineOpener.open(config("a", keyFile.toString()), null).close())
                .hasMessageContaining("master key file " + keyFile).hasMessageContaining("chmod 600");
    }

    @Test
    void theKeyFileComesFromCofferMasterKeyFileAndAKeyInTheEnvironmentIsRefused() {
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_MASTER_KEY_FILE", "/etc/coffer/master.key"),
                Map.of());
        assertThat(c.get(ConfigKey.MASTER_KEY)).isEqualTo("/etc/coffer/master.key");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_MASTER_KEY", "c2VjcmV0"), Map.of()))
                .hasMessageContaining("unknown environment variable COFFER_MASTER_KEY");
    }

    @Test
    void aRotatedStoreReadsItsOldObjectsWithOnlyTheNewKeyFile() throws Exception {
        Path oldFile = dir.resolve("old.key");
        Path newFile = dir.resolve("new.key");
        try (Coffer c = EngineOpener.open(config("a", oldFile.toString()), null)) {
            c.createBucket("bkt", "t");
            put(c, "before", "written before the rotation");
        }

        String id = EngineOpener.rotateKey(config("a", oldFile.toString()), newFile);
        assertThat(id).isEqualTo(MasterKey.load(newFile).keyIdHex());

        try (Coffer c = EngineOpener.open(config("b", newFile.toString()), null)) {
            assertThat(read(c, "before")).isEqualTo("written before the rotation");
        }
        assertThatThrownBy(() -> EngineOpener.open(config("c", oldFile.toString()), null).close())
                .hasMessageContaining("expects master key " + id);
    }

    /** A gateway with data directory {@code data} on the shared backend and metadata; {@code keyFile} null: none. */
    private GatewayConfig config(String data, String keyFile) {
        Map<ConfigKey, String> flags = new EnumMap<>(ConfigKey.class);
        flags.put(ConfigKey.DATA, dir.resolve(data).toString());
        flags.put(ConfigKey.BACKEND, "s3");
        flags.put(ConfigKey.S3_ENDPOINT, s3.endpoint().toString());
        flags.put(ConfigKey.S3_BUCKET, bucket);
        flags.put(ConfigKey.S3_PATH_STYLE, "true");
        flags.put(ConfigKey.BACKEND_ACCESS_KEY, s3.accessKey());
        flags.put(ConfigKey.BACKEND_SECRET_KEY, s3.secretKey());
        flags.put(ConfigKey.METADATA, dir.resolve("shared.db").toString());
        if (keyFile != null) {
            flags.put(ConfigKey.MASTER_KEY, keyFile);
        }
        return GatewayConfig.load(null, Map.of(), flags);
    }

    private static void put(Coffer c, String key, String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        c.putObject(PutObjectRequest.of("bkt", key, body.length), new ByteArrayInputStream(body));
    }

    private static String read(Coffer c, String key) throws Exception {
        try (ObjectContent content = c.getObject("bkt", key)) {
            return new String(content.stream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

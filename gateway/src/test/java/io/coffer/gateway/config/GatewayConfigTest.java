package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.key.DedupPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings are read strictly: a value or a variable name that Coffer would otherwise misread is an error. */
class GatewayConfigTest {
    @TempDir
    Path dir;

    @Test
    void booleansAreTrueOrFalseAndAnythingElseIsAnErrorNamingTheKey() throws Exception {
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_S3_PATH_STYLE", "yes"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3-path-style").hasMessageContaining("COFFER_S3_PATH_STYLE")
                .hasMessageContaining("true or false").hasMessageContaining("'yes'");
        Path file = dir.resolve("c.conf");
        Files.writeString(file, "s3-sign-payload = 1\n");
        assertThatThrownBy(() -> GatewayConfig.load(file, Map.of(), Map.of())).hasMessageContaining("s3-sign-payload");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.S3_PATH_STYLE, "on")))
                .hasMessageContaining("s3-path-style");

        assertThat(GatewayConfig.load(null, Map.of("COFFER_S3_PATH_STYLE", "TRUE"), Map.of())
                .boolValue(ConfigKey.S3_PATH_STYLE)).isTrue();
        assertThat(GatewayConfig.load(null, Map.of("COFFER_S3_PATH_STYLE", "false"), Map.of())
                .boolValue(ConfigKey.S3_PATH_STYLE)).isFalse();
    }

    @Test
    void aMistypedCofferVariableIsAnErrorNamingIt() {
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_S3_PATHSTYLE", "true"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("COFFER_S3_PATHSTYLE");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_SECRETKEY_FILE", "/x"), Map.of()))
                .hasMessageContaining("COFFER_SECRETKEY_FILE");
    }

    @Test
    void theLaunchersOwnVariablesTheNativeCryptoSwitchAndFileVariantsAreAccepted() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "s3cr3t\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_JAVA_OPTS", "-Xmx2g", "COFFER_MVN_OPTS", "-o",
                "COFFER_NATIVE_CRYPTO", "off", "COFFER_ACCESS_KEY", "AK", "COFFER_SECRET_KEY_FILE", secret.toString(),
                "OTHER_VAR", "x"), Map.of());
        assertThat(c.get(ConfigKey.SECRET_KEY)).isEqualTo("s3cr3t");
    }

    @Test
    void dedupSettingsBecomeTheEnginesDedupPolicy() {
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_DEDUP_MIN_SIZE", "4096",
                "COFFER_DEDUP_EXCLUDE", "private, shared/secret/"), Map.of());
        assertThat(c.dedupPolicy()).isEqualTo(new DedupPolicy(4096, List.of(new DedupPolicy.Exclusion("private", ""),
                new DedupPolicy.Exclusion("shared", "secret/"))));
        assertThat(GatewayConfig.load(null, Map.of(), Map.of()).dedupPolicy()).isEqualTo(DedupPolicy.DEFAULT);
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_DEDUP_EXCLUDE", "/prefix"), Map.of()))
                .hasMessageContaining("dedup-exclude");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_DEDUP_MIN_SIZE", "-1"), Map.of()))
                .hasMessageContaining("dedup-min-size");
    }

    @Test
    void aSecretGivenInAFileOthersMayReadIsRefused() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "s3cr3t\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_SECRET_KEY_FILE", secret.toString()),
                Map.of())).hasMessageContaining("COFFER_SECRET_KEY_FILE").hasMessageContaining("chmod 600");
        Path notSecret = Files.writeString(dir.resolve("region"), "eu-west-1\n");
        Files.setPosixFilePermissions(notSecret, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(GatewayConfig.load(null, Map.of("COFFER_REGION_FILE", notSecret.toString()), Map.of())
                .get(ConfigKey.REGION)).as("only secrets must be private").isEqualTo("eu-west-1");
    }
}

package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PoR settings: off by default, embedded or HOST:PORT with a key file, audit intervals and first-start sizes. */
class PorSettingsTest {
    @TempDir
    Path dir;

    private static PorSettings settings(Map<String, String> env, Map<ConfigKey, String> flags) {
        return GatewayConfig.load(null, env, flags).porSettings();
    }

    @Test
    void porIsOffByDefaultWithSixHourAuditsAndASmallEmbeddedStoreThatGrows() {
        PorSettings s = settings(Map.of(), Map.of());
        assertThat(s.mode()).isEqualTo(PorSettings.Mode.OFF);
        assertThat(s.enabled()).isFalse();
        assertThat(s.auditInterval()).isEqualTo(Duration.ofHours(6));
        assertThat(s.k()).isEqualTo(10);
        assertThat(s.blockBytes()).isEqualTo(65536);
        assertThat(s.maxK()).isEqualTo(20);
    }

    @Test
    void embeddedAndRemoteAreReadFromTheEnvironmentAndFlagsTheWayOtherKeysAre() {
        PorSettings embedded = settings(Map.of("COFFER_POR", "embedded", "COFFER_POR_K", "12",
                "COFFER_POR_MAX_K", "14", "COFFER_POR_BLOCK_SIZE", "4096", "COFFER_POR_AUDIT_INTERVAL", "30m"),
                Map.of());
        assertThat(embedded.mode()).isEqualTo(PorSettings.Mode.EMBEDDED);
        assertThat(embedded.k()).isEqualTo(12);
        assertThat(embedded.maxK()).isEqualTo(14);
        assertThat(embedded.blockBytes()).isEqualTo(4096);
        assertThat(embedded.auditInterval()).isEqualTo(Duration.ofMinutes(30));
        assertThat(PorSettings.serverDirectory(dir)).isEqualTo(dir.resolve("por/server"));
        assertThat(PorSettings.clientStateBackup(dir)).isEqualTo(dir.resolve("por/client.state"));

        PorSettings remote = settings(Map.of("COFFER_POR", "embedded"), Map.of(ConfigKey.POR, "por.example:9100",
                ConfigKey.POR_KEY_FILE, "/keys/session.key"));
        assertThat(remote.mode()).isEqualTo(PorSettings.Mode.REMOTE);
        assertThat(remote.host()).isEqualTo("por.example");
        assertThat(remote.port()).isEqualTo(9100);
        assertThat(remote.keyFile()).isEqualTo(Path.of("/keys/session.key"));
        assertThat(remote.describe(dir)).isEqualTo("por.example:9100");
    }

    @Test
    void aRemoteServerWithoutKeyFileOrWithABadAddressIsAnErrorNamingTheKey() {
        assertThatThrownBy(() -> settings(Map.of("COFFER_POR", "por:9100"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("por-key-file");
        for (String bad : new String[] {"on", "por", "por:0", "por:70000", ":9100", "por:x"}) {
            assertThatThrownBy(() -> settings(Map.of("COFFER_POR", bad, "COFFER_POR_KEY_FILE", "/k"), Map.of()))
                    .as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("por must be off, embedded or HOST:PORT");
        }
    }

    @Test
    void auditIntervalsTakeUnitsOrIsoDurationsAndZeroTurnsThemOff() {
        assertThat(PorSettings.interval("0")).isEqualTo(Duration.ZERO);
        assertThat(PorSettings.interval("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(PorSettings.interval("6h")).isEqualTo(Duration.ofHours(6));
        assertThat(PorSettings.interval("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(PorSettings.interval("PT15M")).isEqualTo(Duration.ofMinutes(15));
        for (String bad : new String[] {"", "6", "-1h", "0h", "h", "6 hours", "1w", "PT-1S"}) {
            assertThatThrownBy(() -> settings(Map.of("COFFER_POR_AUDIT_INTERVAL", bad), Map.of())).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("por-audit-interval");
        }
    }

    @Test
    void embeddedSizesOutsideThePorServersBoundsAreRefused() {
        assertThatThrownBy(() -> settings(Map.of("COFFER_POR_MAX_K", "21"), Map.of()))
                .hasMessageContaining("por-max-k must be in [1, 20]");
        assertThatThrownBy(() -> settings(Map.of("COFFER_POR_K", "21"), Map.of()))
                .hasMessageContaining("por-k, por-block-size and por-batch");
        assertThatThrownBy(() -> settings(Map.of("COFFER_POR_BLOCK_SIZE", "0"), Map.of()))
                .hasMessageContaining("por-k, por-block-size and por-batch");
        assertThatThrownBy(() -> settings(Map.of("COFFER_POR_K", "3", "COFFER_POR_BATCH", "4"), Map.of()))
                .hasMessageContaining("por-k, por-block-size and por-batch");
    }

    @Test
    void theConfigurationListsThePorKeysWithTheirSources() throws Exception {
        Path file = dir.resolve("c.conf");
        Files.writeString(file, "por = embedded\npor-audit-interval = 0\n");
        String described = GatewayConfig.load(file, Map.of(), Map.of()).describe();
        assertThat(described).contains("por = embedded  # file", "por-audit-interval = 0  # file",
                "por-k = 10  # default", "por-max-k = 20  # default", "por-block-size = 65536  # default",
                "por-batch = 4  # default",
                "por-key-file = \n");
    }
}

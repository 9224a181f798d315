package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code multipart-expiry}: seven days unless set, 0 for never, a duration from a file, a variable or a flag. */
class MultipartExpirySettingTest {
    @TempDir
    Path dir;

    @Test
    void unsetItIsSevenDays() {
        assertThat(GatewayConfig.load(null, Map.of(), Map.of()).multipartExpiry()).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void zeroMeansNever() {
        assertThat(GatewayConfig.load(null, Map.of("COFFER_MULTIPART_EXPIRY", "0"), Map.of()).multipartExpiry())
                .isZero();
    }

    @Test
    void aFileAVariableAndAFlagEachSetIt() throws Exception {
        Path file = dir.resolve("c.conf");
        Files.writeString(file, "multipart-expiry = 36h\n");
        assertThat(GatewayConfig.load(file, Map.of(), Map.of()).multipartExpiry()).isEqualTo(Duration.ofHours(36));
        assertThat(GatewayConfig.load(file, Map.of("COFFER_MULTIPART_EXPIRY", "2d"), Map.of()).multipartExpiry())
                .isEqualTo(Duration.ofDays(2));
        assertThat(GatewayConfig.load(file, Map.of("COFFER_MULTIPART_EXPIRY", "2d"),
                Map.of(ConfigKey.MULTIPART_EXPIRY, "PT90M")).multipartExpiry()).isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void aValueThatIsNotADurationIsAnErrorNamingTheSetting() {
        for (String bad : new String[] {"7", "-1d", "7 days", "d", "0s"}) {
            assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_MULTIPART_EXPIRY", bad), Map.of()))
                    .as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("multipart-expiry").hasMessageContaining("'" + bad + "'");
        }
    }
}

package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code gc-interval} (an hour unless set, 0 for never) and {@code gc-grace} (an hour unless set, never 0). */
class GcSettingsTest {
    @Test
    void unsetBothAreAnHour() {
        GatewayConfig c = GatewayConfig.load(null, Map.of(), Map.of());
        assertThat(c.gcInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(c.gcGrace()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aVariableOrAFlagSetsThemAndAZeroIntervalMeansNever() {
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_GC_INTERVAL", "0", "COFFER_GC_GRACE", "3h"),
                Map.of());
        assertThat(c.gcInterval()).isZero();
        assertThat(c.gcGrace()).isEqualTo(Duration.ofHours(3));
        assertThat(GatewayConfig.load(null, Map.of("COFFER_GC_INTERVAL", "0"),
                Map.of(ConfigKey.GC_INTERVAL, "30m")).gcInterval()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void aZeroGraceAndValuesThatAreNotDurationsAreErrorsNamingTheSetting() {
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_GC_GRACE", "0"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gc-grace");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_GC_INTERVAL", "hourly"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gc-interval")
                .hasMessageContaining("'hourly'");
    }
}

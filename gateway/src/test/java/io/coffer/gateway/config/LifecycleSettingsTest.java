package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code lifecycle-interval} (an hour unless set, 0: never) and {@code lifecycle-rate} (100 a second unless set). */
class LifecycleSettingsTest {
    @Test
    void unsetTheSweepRunsHourlyAtAHundredDeletionsASecond() {
        GatewayConfig c = GatewayConfig.load(null, Map.of(), Map.of());
        assertThat(c.lifecycleInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(c.lifecycleRate()).isEqualTo(100.0);
    }

    @Test
    void aVariableOrAFlagSetsThemAndAZeroIntervalMeansNever() {
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_LIFECYCLE_INTERVAL", "0",
                "COFFER_LIFECYCLE_RATE", "2.5"), Map.of());
        assertThat(c.lifecycleInterval()).isZero();
        assertThat(c.lifecycleRate()).isEqualTo(2.5);
        assertThat(GatewayConfig.load(null, Map.of("COFFER_LIFECYCLE_INTERVAL", "0"),
                Map.of(ConfigKey.LIFECYCLE_INTERVAL, "1d")).lifecycleInterval()).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void aRateThatIsNotAPositiveNumberAndAnIntervalThatIsNoDurationAreErrorsNamingTheSetting() {
        for (String rate : new String[] {"0", "-1", "fast", "Infinity", "NaN"}) {
            assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_LIFECYCLE_RATE", rate), Map.of()))
                    .as(rate).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lifecycle-rate");
        }
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_LIFECYCLE_INTERVAL", "daily"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lifecycle-interval");
    }
}

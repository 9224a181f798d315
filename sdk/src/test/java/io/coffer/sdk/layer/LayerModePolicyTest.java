package io.coffer.sdk.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The layer-mode setting: buckets with their modes, off where not named, bad entries refused when parsed. */
class LayerModePolicyTest {
    @Test
    void namedBucketsHaveTheirModeAndABareNameMeansHigh() {
        LayerModePolicy p = LayerModePolicy.parse("images=basic:2, layers ,flex=flexible:4096:3", 1024, 64);
        assertThat(p.modeOf("images")).contains("basic:2");
        assertThat(p.modeOf("layers")).contains("high");
        assertThat(p.modeOf("flex")).contains("flexible:4096:3");
        assertThat(p.modeOf("other")).isEmpty();
        assertThat(p.isOff()).isFalse();
    }

    @Test
    void emptyOrAbsentIsOffEverywhere() {
        assertThat(LayerModePolicy.parse(null, 1024, 64).isOff()).isTrue();
        assertThat(LayerModePolicy.parse(" , ", 1024, 64).isOff()).isTrue();
        assertThat(LayerModePolicy.OFF.modeOf("any")).isEmpty();
    }

    @Test
    void badModesSizesAndThresholdsAreRefused() {
        assertThatThrownBy(() -> LayerModePolicy.parse("b=sideways", 1024, 64))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sideways");
        assertThatThrownBy(() -> LayerModePolicy.parse("=high", 1024, 64))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LayerModePolicy.parse("b", 1000, 64))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
        assertThatThrownBy(() -> LayerModePolicy.parse("b", 1024, 257))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
    }

    @Test
    void chunksAreGroupedByClustersUnlessABenchmarkAsksForFirstFit() {
        LayerModePolicy p = LayerModePolicy.parse("layers", 2048, 70);
        assertThat(p.keyAssignment()).isEqualTo(LayerModePolicy.KeyAssignment.CLUSTERS);
        assertThat(LayerModePolicy.OFF.keyAssignment()).isEqualTo(LayerModePolicy.KeyAssignment.CLUSTERS);
        LayerModePolicy lsh = p.withKeyAssignment(LayerModePolicy.KeyAssignment.FIRST_FIT);
        assertThat(lsh.keyAssignment()).isEqualTo(LayerModePolicy.KeyAssignment.FIRST_FIT);
        assertThat(lsh.modeOf("layers")).contains("high");
        assertThat(lsh.subChunkAverage()).isEqualTo(2048);
        assertThat(lsh.threshold()).isEqualTo(70);
        assertThatThrownBy(() -> p.withKeyAssignment(null)).isInstanceOf(NullPointerException.class);
    }
}

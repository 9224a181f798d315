package io.coffer.sdk.similarity;

import static io.coffer.sdk.similarity.LayerSpacePolicy.Space.COMPRESSED;
import static io.coffer.sdk.similarity.LayerSpacePolicy.Space.PARTIALLY_DECODED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LayerSpacePolicyTest {

    @Test
    void basicModeKeepsTheFirstNLayersOfEachImagePrefixAtLayerLevel() {
        LayerSpacePolicy p = LayerSpacePolicy.parse("basic:2");
        assertThat(p.mode()).isEqualTo(LayerSpacePolicy.Mode.BASIC);
        assertThat(p.decide("app/v1/l1.tgz", null)).isEqualTo(COMPRESSED);
        assertThat(p.decide("app/v1/l2.tgz", null)).isEqualTo(COMPRESSED);
        assertThat(p.decide("other/l1.tgz", null)).isEqualTo(COMPRESSED);
        assertThat(p.decide("app/v1/l3.tgz", HuffmanBloomFilterTest.vector(1))).isEqualTo(PARTIALLY_DECODED);
        assertThat(p.decide("top.tgz", null)).isEqualTo(COMPRESSED);
        assertThat(LayerSpacePolicy.basic(0).decide("x/y", null)).isEqualTo(PARTIALLY_DECODED);
    }

    @Test
    void highModeDecodesEverything() {
        LayerSpacePolicy p = LayerSpacePolicy.parse("high");
        assertThat(p.decide("a", null)).isEqualTo(PARTIALLY_DECODED);
        assertThat(p.decide("a", HuffmanBloomFilterTest.vector(1))).isEqualTo(PARTIALLY_DECODED);
    }

    @Test
    void flexibleModeDecodesALayerWhoseHuffmanVectorWasSeen() {
        LayerSpacePolicy p = LayerSpacePolicy.parse("flexible:4096:3");
        int[] v = HuffmanBloomFilterTest.vector(7);
        assertThat(p.decide("img/a", v)).isEqualTo(COMPRESSED);
        assertThat(p.decide("img/b", v.clone())).isEqualTo(PARTIALLY_DECODED);
        assertThat(p.decide("img/c", HuffmanBloomFilterTest.vector(8))).isEqualTo(COMPRESSED);
        assertThat(p.decide("img/d", null)).as("no vector: not deflate").isEqualTo(COMPRESSED);
    }

    @Test
    void badSpecsAreRejectedWithTheAcceptedForms() {
        for (String bad : new String[] {"basic", "basic:-1", "basic:x", "high:2", "flexible:8", "low"}) {
            assertThatThrownBy(() -> LayerSpacePolicy.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> LayerSpacePolicy.parse("nope")).hasMessageContaining("basic:N");
    }
}

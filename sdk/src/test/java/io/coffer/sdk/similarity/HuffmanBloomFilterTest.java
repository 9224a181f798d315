package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class HuffmanBloomFilterTest {

    static int[] vector(long seed) {
        Random r = new Random(seed);
        int[] v = new int[HuffmanBloomFilter.VECTOR_LENGTH];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextInt(16);
        }
        return v;
    }

    @Test
    void anAddedVectorIsAlwaysFoundAndOthersRarelyAreInALargeFilter() {
        HuffmanBloomFilter f = new HuffmanBloomFilter(1 << 16, 3);
        for (int i = 0; i < 100; i++) {
            f.add(vector(i));
        }
        for (int i = 0; i < 100; i++) {
            assertThat(f.mightContain(vector(i))).isTrue();
        }
        int falsePositives = 0;
        for (int i = 1000; i < 2000; i++) {
            if (f.mightContain(vector(i))) {
                falsePositives++;
            }
        }
        // expected rate (1 - e^(-3 * 100 / 65536))^3, about 1e-7
        assertThat(falsePositives).isZero();
        assertThat(f.added()).isEqualTo(100);
    }

    @Test
    void aTinyFilterSaturatesSoThatEverythingLooksSimilar() {
        HuffmanBloomFilter f = new HuffmanBloomFilter(32, 2);
        assertThat(f.mightContain(vector(1))).isFalse();
        for (int i = 0; i < 200; i++) {
            f.add(vector(i));
        }
        assertThat(f.mightContain(vector(5000))).isTrue();
    }

    @Test
    void malformedVectorsAndSizesAreRejected() {
        HuffmanBloomFilter f = new HuffmanBloomFilter(64, 2);
        assertThatThrownBy(() -> f.add(new int[10])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("286");
        int[] bad = vector(1);
        bad[7] = 16;
        assertThatThrownBy(() -> f.mightContain(bad)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HuffmanBloomFilter(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HuffmanBloomFilter(64, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FinesseSketcherTest {
    private static final long RECORDED = -4690849768946419243L;
    private static final int SIZE = 128 << 10;
    private final FinesseSketcher sketcher = new FinesseSketcher();

    @Test
    void equalBytesGiveEqualSketchesAcrossInstancesAndOffsets() {
        byte[] a = SyntheticChunks.text(1, SIZE);
        byte[] padded = new byte[SIZE + 100];
        System.arraycopy(a, 0, padded, 37, SIZE);
        ChunkSketch s = sketcher.sketch(a, 0, a.length);
        assertThat(new FinesseSketcher().sketch(a, 0, a.length)).isEqualTo(s);
        assertThat(sketcher.sketch(padded, 37, SIZE)).isEqualTo(s);
        assertThat(s.superFeatures()).hasSize(3);
        assertThat(s.codeBits()).isEqualTo(256);
    }

    @Test
    void aFewSmallEditsKeepTheSuperFeaturesAndMoveTheCodeLittle() {
        byte[] a = SyntheticChunks.text(2, SIZE);
        byte[] near = SyntheticChunks.edited(a, 3, 4, 16);
        ChunkSketch sa = sketcher.sketch(a, 0, a.length);
        ChunkSketch sn = sketcher.sketch(near, 0, near.length);
        assertThat(near).isNotEqualTo(a);
        assertThat(sn.superFeatures()).isEqualTo(sa.superFeatures());
        assertThat(sa.hammingDistance(sn)).isLessThan(16);
    }

    @Test
    void unrelatedChunksShareNoSuperFeatureAndAreFarInHammingSpace() {
        ChunkSketch a = sketcher.sketch(SyntheticChunks.text(4, SIZE), 0, SIZE);
        ChunkSketch b = sketcher.sketch(SyntheticChunks.text(5, SIZE), 0, SIZE);
        for (long f : a.superFeatures()) {
            assertThat(b.superFeatures()).doesNotContain(f);
        }
        // independent codes differ in about half their bits
        assertThat(a.hammingDistance(b)).isBetween(90, 166);
    }

    @Test
    void distanceGrowsWithTheShareOfChangedBytes() {
        byte[] a = SyntheticChunks.text(6, SIZE);
        ChunkSketch sa = sketcher.sketch(a, 0, a.length);
        int small = sa.hammingDistance(sketcher.sketch(SyntheticChunks.edited(a, 7, 8, 64), 0, SIZE));
        int large = sa.hammingDistance(sketcher.sketch(SyntheticChunks.edited(a, 7, 200, 64), 0, SIZE));
        assertThat(large).isGreaterThan(small);
    }

    @Test
    void shortAndEmptyChunksHaveSketches() {
        byte[] tiny = SyntheticChunks.text(8, 30);
        ChunkSketch s = sketcher.sketch(tiny, 0, tiny.length);
        assertThat(sketcher.sketch(tiny, 0, tiny.length)).isEqualTo(s);
        assertThat(sketcher.sketch(new byte[0], 0, 0).code()).isEqualTo(new long[4]);
    }

    @Test
    void badParametersAndRangesAreRejected() {
        assertThatThrownBy(() -> new FinesseSketcher(48, 10, 3, 256)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FinesseSketcher(48, 12, 3, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sketcher.sketch(new byte[10], 5, 6)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(Arrays.asList(new FinesseSketcher(32, 16, 4, 128).name().split("-"))).contains("16x4", "w32");
    }

    /**
     * Stored state (cluster codes, journals) depends on the exact sketches: performance work must not change them. The
     * value was recorded with the first implementation (before issue 20's speed-ups) over these inputs, including the
     * edge lengths around the window and a window of 1.
     */
    @Test
    void sketchesStayThoseOfTheFirstImplementation() {
        Random r = new Random(5);
        byte[] d = new byte[256 << 10];
        for (int i = 0; i < d.length; i++) {
            d[i] = (byte) (r.nextInt(4) == 0 ? r.nextInt(256) : 'a' + r.nextInt(8));
        }
        long hash = 0;
        int[][] settings = {{48, 12, 3, 256}, {1, 3, 3, 64}, {8, 12, 4, 1024}, {48, 12, 3, 65536}};
        for (int[] c : settings) {
            FinesseSketcher s = new FinesseSketcher(c[0], c[1], c[2], c[3]);
            for (int length : new int[] {0, 1, 2, 7, 8, 9, 47, 48, 49, 50, 100, 1000, 4097, 70000}) {
                for (int offset : new int[] {0, 3}) {
                    hash = hash * 31 + s.sketch(d, offset, length).hashCode();
                }
            }
        }
        for (int k = 0; k < 200; k++) {
            byte[] z = new byte[r.nextInt(300)];
            for (int i = 0; i < z.length; i++) {
                z[i] = (byte) r.nextInt(3);
            }
            hash = hash * 31 + new FinesseSketcher(1 + r.nextInt(10), 4, 2, 64).sketch(z, 0, z.length).hashCode();
        }
        assertThat(hash).isEqualTo(RECORDED);
    }
}

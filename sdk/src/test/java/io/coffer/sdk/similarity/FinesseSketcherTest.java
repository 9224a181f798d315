package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FinesseSketcherTest {
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
}

package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimilarityClusteringTest {
    private static final int SIZE = 64 << 10;
    private final FinesseSketcher sketcher = new FinesseSketcher();

    private ChunkSketch sketch(byte[] b) {
        return sketcher.sketch(b, 0, b.length);
    }

    /** A sketch with the given super-features and a code whose first {@code ones} bits are set. */
    private static ChunkSketch handMade(long sf, int ones) {
        long[] code = new long[4];
        for (int b = 0; b < ones; b++) {
            code[b >>> 6] |= 1L << (b & 63);
        }
        return new ChunkSketch(new long[] {sf, sf + 1000, sf + 2000}, code);
    }

    @Test
    void epsilonIsThePercentileOfTheLshGroupsAverageDistances() {
        // groups by super-feature: {0,1} average 4, {2,3,4} average (2+6+4)/3 = 4, {5,6} average 10, {7} alone
        List<ChunkSketch> s = List.of(handMade(1, 0), handMade(1, 4), handMade(2, 0), handMade(2, 2),
                handMade(2, 6), handMade(3, 0), handMade(3, 10), handMade(4, 50));
        assertThat(SimilarityClustering.adaptiveEpsilon(s, 0.9)).isEqualTo(10);
        assertThat(SimilarityClustering.adaptiveEpsilon(s, 0.5)).isEqualTo(4);
        assertThat(SimilarityClustering.adaptiveEpsilon(List.of(handMade(1, 0), handMade(2, 9)), 0.9)).isZero();
    }

    @Test
    void dbscanJoinsChainsWithinEpsilonAndLeavesLonePointsAsNoise() {
        List<long[]> codes = List.of(handMade(0, 0).code(), handMade(0, 3).code(), handMade(0, 6).code(),
                handMade(0, 100).code(), handMade(0, 200).code(), handMade(0, 202).code());
        assertThat(HammingDbscan.cluster(codes, 3, 2)).containsExactly(0, 0, 0, HammingDbscan.NOISE, 1, 1);
        assertThat(HammingDbscan.cluster(codes, 3, 3)).containsExactly(0, 0, 0, HammingDbscan.NOISE,
                HammingDbscan.NOISE, HammingDbscan.NOISE);
    }

    /**
     * A data set like the layers': families of versions. Family c's members differ more (30 edits each), so the LSH
     * groups' average distances, and with them epsilon, cover the few-edit variants of families a and b.
     */
    private List<byte[]> families() {
        byte[] a = SyntheticChunks.text(10, SIZE);
        byte[] b = SyntheticChunks.text(11, SIZE);
        byte[] c = SyntheticChunks.text(14, SIZE);
        List<byte[]> chunks = new ArrayList<>();
        chunks.add(a);                                    // 0: a
        chunks.add(a.clone());                            // 1: a again
        chunks.add(SyntheticChunks.edited(a, 1, 3, 32));  // 2: a, a few edits
        chunks.add(SyntheticChunks.text(12, SIZE));       // 3: unrelated
        chunks.add(b);                                    // 4: b
        chunks.add(SyntheticChunks.edited(b, 2, 3, 32));  // 5: b, a few edits
        chunks.add(SyntheticChunks.edited(b, 3, 3, 32));  // 6: b, other edits
        chunks.add(SyntheticChunks.text(13, SIZE));       // 7: unrelated
        for (int i = 0; i < 4; i++) {
            chunks.add(SyntheticChunks.edited(c, 20 + i, 30, 32)); // 8..11: c, many edits
        }
        return chunks;
    }

    @Test
    void identicalAndNearIdenticalChunksShareAClusterAndUnrelatedOnesGetTheirOwn() {
        List<ChunkSketch> sketches = families().stream().map(this::sketch).toList();

        SimilarityClustering.Result r = SimilarityClustering.cluster(sketches);

        int[] c = r.clusterOf();
        assertThat(c[1]).as("identical").isEqualTo(c[0]);
        assertThat(c[2]).as("near-identical").isEqualTo(c[0]);
        assertThat(c[5]).isEqualTo(c[4]);
        assertThat(c[6]).isEqualTo(c[4]);
        assertThat(c[4]).isNotEqualTo(c[0]);
        for (int unrelated : new int[] {3, 7}) {
            for (int other = 0; other < c.length; other++) {
                if (other != unrelated) {
                    assertThat(c[other]).as("chunk %d beside unrelated chunk %d", other, unrelated)
                            .isNotEqualTo(c[unrelated]);
                }
            }
        }
        for (int i = 8; i < 12; i++) {
            assertThat(c[i]).isNotIn(c[0], c[4]);
        }
        assertThat(r.epsilon()).isBetween(3, 64);
        assertThat(r.clusters()).isEqualTo(Arrays.stream(c).max().getAsInt() + 1);
    }

    @Test
    void clusteringDoesNotDependOnInputOrderBeyondNumbering() {
        List<ChunkSketch> forward = families().stream().map(this::sketch).toList();
        List<ChunkSketch> backward = new ArrayList<>(forward);
        Collections.reverse(backward);
        int[] f = SimilarityClustering.cluster(forward).clusterOf();
        int[] b = SimilarityClustering.cluster(backward).clusterOf();
        int n = f.length;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                assertThat(f[i] == f[j]).as("%d and %d together", i, j).isEqualTo(b[n - 1 - i] == b[n - 1 - j]);
            }
        }
    }
}

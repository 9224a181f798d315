package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import io.coffer.sdk.similarity.ChunkSketch;
import org.junit.jupiter.api.Test;

/**
 * The two ways the layer path groups 512 KiB chunks under one key: SimEnc's clusters go by the Hamming distance of the
 * codes (threshold 64 of 256 bits), the LSH-MLE baseline's FirstFit groups by equal super-features, whatever the codes.
 */
class LayerKeyGroupsTest {
    private static final long[] ZEROS = {0, 0, 0, 0};
    private static final long[] ONES = {-1, -1, -1, -1};
    /** 32 bits away from {@link #ZEROS}: within the threshold. */
    private static final long[] NEAR = {0xffffffffL, 0, 0, 0};

    private static byte[] hash(int b) {
        byte[] h = new byte[32];
        h[0] = (byte) b;
        return h;
    }

    @Test
    void clustersJoinChunksOfNearCodesWhateverTheirSuperFeatures() {
        LayerKeyGroups g = LayerKeyGroups.of(KeyAssignment.CLUSTERS, 64);
        int a = g.assign(new ChunkSketch(new long[] {1, 2, 3}, ZEROS), hash(1));
        int b = g.assign(new ChunkSketch(new long[] {4, 5, 6}, NEAR), hash(2));
        int c = g.assign(new ChunkSketch(new long[] {1, 2, 3}, ONES), hash(3));
        assertThat(b).isEqualTo(a);
        assertThat(c).isNotEqualTo(a);
        assertThat(g.size()).isEqualTo(2);
        assertThat(g.representativeHash(c)).isEqualTo(hash(3));
    }

    @Test
    void firstFitJoinsChunksSharingASuperFeatureWhateverTheirCodes() {
        LayerKeyGroups g = LayerKeyGroups.of(KeyAssignment.FIRST_FIT, 64);
        int a = g.assign(new ChunkSketch(new long[] {1, 2, 3}, ZEROS), hash(1));
        int b = g.assign(new ChunkSketch(new long[] {4, 5, 6}, NEAR), hash(2));
        int c = g.assign(new ChunkSketch(new long[] {9, 9, 3}, ONES), hash(3));
        assertThat(b).isNotEqualTo(a);
        assertThat(c).isEqualTo(a);
        assertThat(g.size()).isEqualTo(2);
        assertThat(g.representativeHash(a)).isEqualTo(hash(1));
        assertThat(g.representativeHash(b)).isEqualTo(hash(2));
    }

    @Test
    void firstFitTakesTheGroupOfTheFirstSuperFeatureThatMatches() {
        LayerKeyGroups g = LayerKeyGroups.of(KeyAssignment.FIRST_FIT, 64);
        int a = g.assign(new ChunkSketch(new long[] {1, 2, 3}, ZEROS), hash(1));
        int b = g.assign(new ChunkSketch(new long[] {4, 5, 6}, ZEROS), hash(2));
        // super-feature 0 matches b, super-feature 2 matches a: FirstFit tries them in order
        assertThat(g.assign(new ChunkSketch(new long[] {4, 8, 3}, ZEROS), hash(3))).isEqualTo(b);
        // a matched chunk does not register its own features: 8 still names no group
        assertThat(g.assign(new ChunkSketch(new long[] {7, 8, 9}, ZEROS), hash(4))).isNotIn(a, b);
    }
}

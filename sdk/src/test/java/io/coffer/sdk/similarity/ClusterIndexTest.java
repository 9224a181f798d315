package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.key.ConvergentKeySource;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.RandomKeySource;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterIndexTest {
    private static final int SIZE = 64 << 10;
    private final FinesseSketcher sketcher = new FinesseSketcher();

    private ChunkSketch sketch(byte[] b) {
        return sketcher.sketch(b, 0, b.length);
    }

    private static byte[] sha256(byte[] b) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(b);
    }

    @Test
    void aNearChunkJoinsTheNearestWarmUpClusterAndAFarOneFoundsANewCluster() throws Exception {
        byte[] a = SyntheticChunks.text(30, SIZE);
        byte[] b = SyntheticChunks.text(31, SIZE);
        List<byte[]> warm = List.of(a, SyntheticChunks.edited(a, 1, 2, 16), b);
        List<ChunkSketch> sketches = new ArrayList<>();
        List<byte[]> hashes = new ArrayList<>();
        for (byte[] w : warm) {
            sketches.add(sketch(w));
            hashes.add(sha256(w));
        }
        SimilarityClustering.Result r = SimilarityClustering.cluster(sketches, 0.9, 2);
        ClusterIndex index = ClusterIndex.fromWarmUp(sketches, hashes, r, 20);
        assertThat(index.size()).isEqualTo(r.clusters());
        assertThat(index.representativeHash(r.clusterOf(0))).isEqualTo(sha256(a));

        ClusterIndex.Assignment nearA = index.assign(sketch(SyntheticChunks.edited(a, 9, 3, 16)), new byte[32]);
        assertThat(nearA.created()).isFalse();
        assertThat(nearA.cluster()).isEqualTo(r.clusterOf(0));
        assertThat(nearA.distance()).isLessThanOrEqualTo(20);

        ClusterIndex.Assignment nearB = index.assign(sketch(SyntheticChunks.edited(b, 9, 3, 16)), new byte[32]);
        assertThat(nearB.cluster()).isEqualTo(r.clusterOf(2));

        byte[] far = SyntheticChunks.text(32, SIZE);
        ClusterIndex.Assignment created = index.assign(sketch(far), sha256(far));
        assertThat(created.created()).isTrue();
        assertThat(created.cluster()).isEqualTo(r.clusters());
        assertThat(index.representativeHash(created.cluster())).isEqualTo(sha256(far));
        assertThat(index.assign(sketch(far), new byte[32]).cluster()).isEqualTo(created.cluster());
        assertThat(index.members(created.cluster())).isEqualTo(2);
    }

    @Test
    void thresholdZeroAdmitsOnlyAnEqualCode() {
        ClusterIndex index = new ClusterIndex(256, 0);
        byte[] a = SyntheticChunks.text(33, SIZE);
        assertThat(index.assign(sketch(a), new byte[32]).created()).isTrue();
        assertThat(index.assign(sketch(a.clone()), new byte[32]).created()).isFalse();
        assertThat(index.assign(sketch(SyntheticChunks.edited(a, 1, 200, 32)), new byte[32]).created()).isTrue();
        assertThat(index.size()).isEqualTo(2);
    }

    @Test
    void theCentroidIsTheMembersMajority() {
        ClusterIndex index = new ClusterIndex(64, 64);
        index.assign(new ChunkSketch(new long[0], new long[] {0b0011L}), new byte[32]);
        index.assign(new ChunkSketch(new long[0], new long[] {0b0110L}), new byte[32]);
        index.assign(new ChunkSketch(new long[0], new long[] {0b0111L}), new byte[32]);
        // majority of 0011, 0110, 0111 is 0111: an equal code is at distance 0
        assertThat(index.assign(new ChunkSketch(new long[0], new long[] {0b0111L}), new byte[32]).distance())
                .isZero();
        assertThatThrownBy(() -> index.assign(new ChunkSketch(new long[0], new long[2]), new byte[32]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachClusterGetsTheKeySourcesKeyForItsRepresentative() throws Exception {
        KeySource source = new ConvergentKeySource(new byte[] {1, 2, 3});
        ClusterIndex index = new ClusterIndex(256, 10);
        byte[] a = SyntheticChunks.text(34, SIZE);
        byte[] b = SyntheticChunks.text(35, SIZE);
        int ca = index.assign(sketch(a), sha256(a)).cluster();
        int cb = index.assign(sketch(b), sha256(b)).cluster();
        int ca2 = index.assign(sketch(SyntheticChunks.edited(a, 1, 1, 8)), sha256(b)).cluster();
        ClusterKeyring ring = new ClusterKeyring(source);
        List<ChunkKey> keys = ring.keysFor(index, List.of(ca, cb, ca2));
        assertThat(ca2).isEqualTo(ca);
        assertThat(keys.get(0)).isEqualTo(source.keysFor(List.of(sha256(a))).get(0)).isEqualTo(keys.get(2));
        assertThat(keys.get(1)).isEqualTo(source.keysFor(List.of(sha256(b))).get(0)).isNotEqualTo(keys.get(0));
        assertThat(ring.keyFor(index, cb)).isEqualTo(keys.get(1));
        assertThat(ring.keysIssued()).isEqualTo(2);
        assertThatThrownBy(() -> new ClusterKeyring(RandomKeySource.INSTANCE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theHashIsAskedForOnlyWhenAChunkFoundsAClusterAndBecomesItsRepresentative() {
        ClusterIndex index = new ClusterIndex(64, 1);
        int[] asked = new int[1];
        byte[] founder = new byte[32];
        founder[0] = 7;
        ClusterIndex.Assignment first = index.assign(new ChunkSketch(new long[0], new long[] {0b0011L}), () -> {
            asked[0]++;
            return founder;
        });
        ClusterIndex.Assignment joined = index.assign(new ChunkSketch(new long[0], new long[] {0b0111L}), () -> {
            asked[0]++;
            return new byte[32];
        });
        assertThat(first.created()).isTrue();
        assertThat(joined.created()).isFalse();
        assertThat(asked[0]).isEqualTo(1);
        assertThat(index.representativeHash(first.cluster())).isEqualTo(founder);
        assertThatThrownBy(() -> index.assign(new ChunkSketch(new long[0], new long[] {-1L}), () -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no hash");
        assertThat(index.size()).isEqualTo(1);
    }
}

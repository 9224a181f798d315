package io.coffer.sdk.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.similarity.SubChunkKeys;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Layer manifests whose sub-chunk entries are stored as cluster index, hash and length (FORMAT.md "Manifest"). */
class ManifestCodecDerivedEntriesTest {
    private final Random random = new Random(7);

    @Test
    void derivedEntriesDecodeToTheSameKeysIdsHashesAndLengths() throws Exception {
        ChunkKey a = ChunkKey.random();
        ChunkKey b = ChunkKey.random();
        List<ManifestEntry> entries = new ArrayList<>();
        entries.add(full(100));
        entries.add(full(200));
        for (int i = 0; i < 50; i++) {
            entries.add(derived(i % 3 == 0 ? b : a, 500 + i));
        }
        Manifest m = layer(entries, 2);

        Manifest back = ManifestCodec.decode(ManifestCodec.encode(m));

        assertThat(back.layerSide()).isEqualTo(2);
        assertThat(back.entries()).hasSize(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            ManifestEntry want = entries.get(i);
            ManifestEntry got = back.entries().get(i);
            assertThat(got.id()).isEqualTo(want.id());
            assertThat(got.key()).isEqualTo(want.key());
            assertThat(got.hash()).isEqualTo(want.hash());
            assertThat(got.length()).isEqualTo(want.length());
            assertThat(got.clusterKey()).isEqualTo(want.clusterKey());
        }
    }

    @Test
    void derivedEntriesTakeLessThanHalfTheBytesOfFullOnes() {
        ChunkKey a = ChunkKey.random();
        List<ManifestEntry> derived = new ArrayList<>();
        List<ManifestEntry> full = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ManifestEntry e = derived(a, 1024);
            derived.add(e);
            full.add(new ManifestEntry(e.id(), e.key(), e.hash(), e.length()));
        }
        int compact = ManifestCodec.encode(layer(derived, 0)).length;
        int plain = ManifestCodec.encode(layer(full, 0)).length;

        assertThat(compact).isLessThan(plain / 2);
        assertThat(compact).isLessThan(1000 * 36 + 200);
    }

    @Test
    void aLayerWithoutDerivedEntriesIsEncodedAsBefore() throws Exception {
        byte[] bytes = ManifestCodec.encode(layer(List.of(full(10), full(20)), 1));

        assertThat(bytes[4] & 0x40).isZero();
        assertThat(ManifestCodec.decode(bytes).entries()).allSatisfy(e -> assertThat(e.clusterKey()).isNull());
    }

    @Test
    void anEntryWhoseKeyDoesNotDeriveFromItsClusterKeyIsRefusedAtEncoding() {
        ManifestEntry e = derived(ChunkKey.random(), 64);
        ManifestEntry wrong = new ManifestEntry(e.id(), e.key(), e.hash(), e.length(), ChunkKey.random());

        assertThatThrownBy(() -> ManifestCodec.encode(layer(List.of(wrong), 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClusterIndexPastTheTableIsMalformed() {
        byte[] bytes = ManifestCodec.encode(layer(List.of(derived(ChunkKey.random(), 64)), 0));
        // the last entry: cluster index (1), 32-byte hash, length 64 (one byte); point it at cluster 2 of 1
        bytes[bytes.length - 34] = 2;

        assertThatThrownBy(() -> ManifestCodec.decode(bytes)).isInstanceOf(MalformedRecordException.class);
    }

    private ManifestEntry full(int length) {
        ChunkKey k = ChunkKey.random();
        return new ManifestEntry(ChunkCipher.idOf(k), k, hash(), length);
    }

    private ManifestEntry derived(ChunkKey cluster, int length) {
        byte[] h = hash();
        ChunkKey k = new SubChunkKeys(cluster).keyFor(h);
        return new ManifestEntry(ChunkCipher.idOf(k), k, h, length, cluster);
    }

    private byte[] hash() {
        byte[] h = new byte[32];
        random.nextBytes(h);
        return h;
    }

    private static Manifest layer(List<ManifestEntry> entries, int side) {
        return new Manifest("bucket", "key.tgz", "v1", 12345, "etag", Instant.ofEpochMilli(1000),
                ObjectAttributes.EMPTY, List.of(), List.of(), entries, null, side);
    }
}

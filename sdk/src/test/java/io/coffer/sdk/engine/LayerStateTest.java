package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.FaultyBlobStore;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.key.ConvergentKeySource;
import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import io.coffer.sdk.similarity.ChunkSketch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layer journal's assignment records: a batch asks for the SHA-256 of only the chunks that found a group and
 * records only those (kinds 4 and 5), replay gives a restarted engine the same groups from those and from the older
 * kinds 2 and 3 (every chunk's hash), a record whose replay needs a hash it does not carry is refused as damage, and
 * a batch whose record was not written is undone by rebuilding the state from the journal.
 */
class LayerStateTest {
    private static final String BUCKET = "lay";
    private static final int THRESHOLD = 64;

    @TempDir
    Path dir;
    private TestEngine engine;
    private EngineContext ctx;

    @BeforeEach
    void open() throws IOException {
        engine = TestEngine.open(dir, b -> b.keySource(new ConvergentKeySource(new byte[32])));
        ctx = new EngineContext(((Engine) engine.coffer).config());
    }

    @AfterEach
    void close() {
        ctx.close();
        engine.close();
    }

    @Test
    void aBatchHashesOnlyTheChunksThatFoundAClusterAndAReloadedStateKeysTheNextBatchAlike() throws Exception {
        List<ChunkSketch> first = codes(new Random(1), 6, 3);
        List<Integer> asked = new ArrayList<>();
        LayerState live = load(KeyAssignment.CLUSTERS, THRESHOLD);
        live.assign(first, i -> {
            asked.add(i);
            return hash(i);
        });
        // chunks 0-2 have fresh random codes, 3-5 repeat them: only the first three found clusters
        assertThat(asked).containsExactly(0, 1, 2);
        assertThat(live.clusters()).isEqualTo(3);

        LayerState reloaded = load(KeyAssignment.CLUSTERS, THRESHOLD);
        assertThat(reloaded.clusters()).isEqualTo(3);
        List<ChunkSketch> next = new ArrayList<>(first.subList(0, 2));
        next.addAll(codes(new Random(2), 1, 1));
        List<ChunkKey> liveKeys = live.assign(next, i -> hash(100 + i));
        List<ChunkKey> reloadedKeys = reloaded.assign(next, i -> hash(100 + i));
        assertThat(reloadedKeys).isEqualTo(liveKeys);
        assertThat(liveKeys.get(0)).isNotEqualTo(liveKeys.get(1));
    }

    @Test
    void anOldJournalWithEveryChunksHashReplaysToTheSameClusters() throws Exception {
        List<ChunkSketch> batch = codes(new Random(3), 5, 2);
        appendRecord(0, oldClusterRecord(batch, LayerStateTest::hash));
        LayerState replayed = load(KeyAssignment.CLUSTERS, THRESHOLD);
        assertThat(replayed.clusters()).isEqualTo(2);

        // a second engine (its own store, the same convergent key source) assigns the batch live
        try (TestEngine otherEngine = TestEngine.open(dir.resolve("other"),
                b -> b.keySource(new ConvergentKeySource(new byte[32])));
             EngineContext other = new EngineContext(((Engine) otherEngine.coffer).config())) {
            LayerState live = LayerState.load(other, BUCKET, "high", THRESHOLD, KeyAssignment.CLUSTERS);
            live.assign(batch, LayerStateTest::hash);
            List<ChunkSketch> next = List.of(batch.get(0), batch.get(1));
            assertThat(replayed.assign(next, i -> hash(50 + i))).isEqualTo(live.assign(next, i -> hash(50 + i)));
        }
    }

    @Test
    void firstFitGroupsHashOnlyTheirBaseChunksAndReplayFromOldAndNewRecords() throws Exception {
        List<ChunkSketch> batch = List.of(superFeatures(1, 2), superFeatures(3, 4), superFeatures(1, 9),
                superFeatures(7, 4));
        appendRecord(0, oldFirstFitRecord(batch, LayerStateTest::hash));
        LayerState s = load(KeyAssignment.FIRST_FIT, THRESHOLD);
        assertThat(s.clusters()).isEqualTo(2);
        List<Integer> asked = new ArrayList<>();
        List<ChunkKey> keys = s.assign(List.of(superFeatures(5, 6), superFeatures(1, 0), superFeatures(8, 6)), i -> {
            asked.add(i);
            return hash(10 + i);
        });
        assertThat(asked).containsExactly(0);
        assertThat(keys.get(2)).isEqualTo(keys.get(0));
        assertThat(keys.get(1)).isNotEqualTo(keys.get(0));

        LayerState reloaded = load(KeyAssignment.FIRST_FIT, THRESHOLD);
        assertThat(reloaded.clusters()).isEqualTo(3);
        assertThat(reloaded.assign(List.of(superFeatures(5, 0), superFeatures(3, 0)), i -> hash(99)))
                .containsExactly(keys.get(0), s.assign(List.of(superFeatures(0, 4)), i -> hash(98)).get(0));
    }

    @Test
    void aRecordLackingTheHashOfAChunkThatFoundsAClusterIsRefused() throws Exception {
        List<ChunkSketch> batch = codes(new Random(4), 2, 2);
        appendRecord(0, sparseClusterRecord(batch, THRESHOLD, i -> i == 0 ? hash(0) : null));
        assertThatThrownBy(() -> load(KeyAssignment.CLUSTERS, THRESHOLD))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is damaged")
                .hasMessageContaining("chunk 1 founds a group on replay, but the record carries no hash");
    }

    @Test
    void aRecordCarryingAHashForAChunkThatJoinsAClusterIsRefused() throws Exception {
        List<ChunkSketch> batch = codes(new Random(5), 2, 1);
        appendRecord(0, sparseClusterRecord(batch, THRESHOLD, LayerStateTest::hash));
        assertThatThrownBy(() -> load(KeyAssignment.CLUSTERS, THRESHOLD))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("carries a hash for chunk 1, which founds no group");
    }

    @Test
    void aNewRecordWrittenUnderAnotherThresholdIsNotReplayed() throws Exception {
        load(KeyAssignment.CLUSTERS, THRESHOLD).assign(codes(new Random(6), 3, 3), LayerStateTest::hash);
        // under threshold 256 every chunk would join the first cluster: the record could not be replayed faithfully
        LayerState other = load(KeyAssignment.CLUSTERS, 256);
        assertThat(other.clusters()).isZero();
        other.assign(codes(new Random(7), 2, 2), LayerStateTest::hash);
        assertThat(load(KeyAssignment.CLUSTERS, 256).clusters()).isEqualTo(1);
        assertThat(load(KeyAssignment.CLUSTERS, THRESHOLD).clusters()).isEqualTo(3);
    }

    @Test
    void aBatchWhoseRecordWasNotWrittenIsUndoneByRebuildingFromTheJournal() throws Exception {
        FaultyBlobStore faulty = new FaultyBlobStore(new DirectoryBlobStore(dir.resolve("faulty")));
        try (TestEngine e = TestEngine.open(dir.resolve("f"),
                b -> b.keySource(new ConvergentKeySource(new byte[32])).blobStore(faulty));
             EngineContext c = new EngineContext(((Engine) e.coffer).config())) {
            List<ChunkSketch> batch = codes(new Random(8), 3, 3);
            LayerState s = LayerState.load(c, BUCKET, "high", THRESHOLD, KeyAssignment.CLUSTERS);
            faulty.failNextPuts(1);
            assertThatThrownBy(() -> s.assign(batch, LayerStateTest::hash)).isInstanceOf(IOException.class);
            // the lost batch's clusters are gone: its first chunk founds a cluster again
            List<Integer> asked = new ArrayList<>();
            s.assign(batch.subList(0, 1), i -> {
                asked.add(i);
                return hash(i);
            });
            assertThat(asked).containsExactly(0);
            assertThat(s.clusters()).isEqualTo(1);

            // a record stored although its put reported failure is kept: the rebuilt state has it
            faulty.failNextPutsAfterWrite(1);
            assertThatThrownBy(() -> s.assign(batch.subList(1, 3), LayerStateTest::hash))
                    .isInstanceOf(IOException.class);
            s.assign(batch.subList(2, 3), i -> {
                throw new AssertionError("chunk " + i + " founds no cluster");
            });
            assertThat(s.clusters()).isEqualTo(3);
            assertThat(LayerState.load(c, BUCKET, "high", THRESHOLD, KeyAssignment.CLUSTERS).clusters()).isEqualTo(3);
        }
    }

    private LayerState load(KeyAssignment assignment, int threshold) throws IOException {
        return LayerState.load(ctx, BUCKET, "high", threshold, assignment);
    }

    private void appendRecord(long seq, BinaryWriter record) throws IOException {
        String name = LayerState.folderOf(engine.masterKey, BUCKET) + String.format("%016d", seq);
        byte[] sealed = engine.masterKey.seal("layer-journal", name, record.toByteArray());
        engine.blobs.put(name, BlobContent.of(sealed, 0, sealed.length));
    }

    private static BinaryWriter header(int kind) {
        return new BinaryWriter(256).raw("CFLJ".getBytes(StandardCharsets.US_ASCII)).u8(1).u8(kind);
    }

    /** Kind 2, as the engine wrote it before issue 20's dedup3: every chunk's code and hash. */
    private static BinaryWriter oldClusterRecord(List<ChunkSketch> sketches, IntFunction<byte[]> hashOf) {
        BinaryWriter w = header(2).uvarint(sketches.size());
        for (int i = 0; i < sketches.size(); i++) {
            for (long l : sketches.get(i).code()) {
                w.u64(l);
            }
            w.raw(hashOf.apply(i));
        }
        return w;
    }

    /** Kind 3: every chunk's super-features and hash. */
    private static BinaryWriter oldFirstFitRecord(List<ChunkSketch> sketches, IntFunction<byte[]> hashOf) {
        BinaryWriter w = header(3).uvarint(sketches.size());
        for (int i = 0; i < sketches.size(); i++) {
            long[] sf = sketches.get(i).superFeatures();
            w.u8(sf.length);
            for (long l : sf) {
                w.u64(l);
            }
            w.raw(hashOf.apply(i));
        }
        return w;
    }

    /** Kind 4 with a hash where {@code hashOf} gives one. */
    private static BinaryWriter sparseClusterRecord(List<ChunkSketch> sketches, int threshold,
                                                    IntFunction<byte[]> hashOf) {
        BinaryWriter w = header(4).uvarint(sketches.size()).uvarint(threshold);
        for (int i = 0; i < sketches.size(); i++) {
            for (long l : sketches.get(i).code()) {
                w.u64(l);
            }
            byte[] h = hashOf.apply(i);
            w.u8(h == null ? 0 : 1);
            if (h != null) {
                w.raw(h);
            }
        }
        return w;
    }

    /** {@code distinct} random 256-bit codes, then the first {@code n - distinct} of them again. */
    private static List<ChunkSketch> codes(Random random, int n, int distinct) {
        List<ChunkSketch> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i < distinct ? new ChunkSketch(new long[0], new long[] {random.nextLong(), random.nextLong(),
                    random.nextLong(), random.nextLong()}) : out.get(i - distinct));
        }
        return out;
    }

    private static ChunkSketch superFeatures(long a, long b) {
        return new ChunkSketch(new long[] {a, b}, new long[0]);
    }

    private static byte[] hash(int i) {
        byte[] h = new byte[32];
        h[0] = (byte) i;
        h[31] = (byte) (i >> 8);
        h[1] = 1;
        return h;
    }
}

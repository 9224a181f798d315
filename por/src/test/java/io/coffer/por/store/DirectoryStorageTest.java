package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleTree;
import io.coffer.por.server.HonestPorServer;
import io.coffer.por.server.MemoryPorServer;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** U, the code vectors and the sealed checksums in files: what is written is read back, also after a reopen. */
class DirectoryStorageTest {
    private static final int BLOCK = 40;
    private static final int WIDTH = Segments.count(BLOCK) + 1;

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(5);

    private byte[] sealed() {
        return RandomBytes.of(random, ChecksumSealer.SEALED_BYTES);
    }

    @Test
    void uAndItsSealedChecksumsComeBackAfterAReopenWithTheSameMerkleRoot() throws IOException {
        byte[] block = RandomBytes.of(random, BLOCK);
        byte[] sealed3 = sealed();
        byte[] sealed5 = sealed();
        byte[] root;
        try (DirectoryStorage storage = DirectoryStorage.open(dir, 4, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(), 0)) {
            assertThat(storage.u(3)).isNull();
            assertThat(storage.uSealed(3)).isNull();
            storage.setU(3, block);
            storage.setUSealed(3, sealed3);
            storage.setUSealed(5, sealed5);
            storage.setU(5, block);
            storage.setU(5, null); // lost
            storage.force();
            root = storage.root();
        }
        try (DirectoryStorage storage = DirectoryStorage.open(dir, 4, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(), 0)) {
            assertThat(storage.u(3)).isEqualTo(block);
            assertThat(storage.uSealed(3)).isEqualTo(sealed3);
            assertThat(storage.lost(3)).isFalse();
            assertThat(storage.u(5)).isNull();
            assertThat(storage.uSealed(5)).isEqualTo(sealed5);
            assertThat(storage.lost(5)).isTrue();
            assertThat(storage.u(15)).isNull();
            assertThat(storage.root()).isEqualTo(root);
            MerkleTree inMemory = new MerkleTree(16);
            inMemory.set(3, MerkleHash.leaf(sealed3));
            inMemory.set(5, MerkleHash.leaf(sealed5));
            assertThat(storage.root()).isEqualTo(inMemory.root());
            assertThat(storage.proof(5).siblings()).isDeepEqualTo(inMemory.proof(5).siblings());
            assertThatThrownBy(() -> storage.u(16)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> storage.setU(0, new byte[BLOCK - 1])).isInstanceOf(
                    IllegalArgumentException.class);
        }
    }

    @Test
    void rangeReadsGiveWhatSingleReadsGiveForRunsScatteredIndicesAndPendingWrites() throws IOException {
        int k = 16; // deeper than the Merkle levels kept in memory: paths read siblings from the file too
        MerkleTree inMemory = new MerkleTree(1 << k);
        byte[][] blocks = new byte[1 << k][];
        try (DirectoryStorage storage = DirectoryStorage.open(dir, k, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(),
                0)) {
            for (int round = 0; round < 2; round++) { // the second's writes stay pending: no force after them
                for (int index : new int[] {7, 8, 9, 10, 12, 40_000, 65_535, 100 + round}) {
                    blocks[index] = RandomBytes.of(random, BLOCK);
                    byte[] sealed = sealed();
                    storage.setU(index, blocks[index]);
                    storage.setUSealed(index, sealed);
                    inMemory.set(index, MerkleHash.leaf(sealed));
                }
                if (round == 0) {
                    storage.force();
                }
            }
            storage.setU(9, null); // lost: its sealed checksum stays
            blocks[9] = null;
            for (int[] indices : new int[][] {{6, 7, 8, 9, 10, 11, 12}, {65_535, 7, 40_000, 101}, {12}, {}}) {
                byte[][] us = storage.uBlocks(indices);
                byte[][] sealed = storage.uSealedAll(indices);
                var proofs = storage.proofs(indices);
                for (int i = 0; i < indices.length; i++) {
                    assertThat(us[i]).isEqualTo(blocks[indices[i]]).isEqualTo(storage.u(indices[i]));
                    assertThat(sealed[i]).isEqualTo(storage.uSealed(indices[i]));
                    assertThat(proofs[i].index()).isEqualTo(indices[i]);
                    assertThat(proofs[i].siblings()).isDeepEqualTo(inMemory.proof(indices[i]).siblings())
                            .isDeepEqualTo(storage.proof(indices[i]).siblings());
                }
            }
            assertThat(storage.root()).isEqualTo(inMemory.root());
            assertThatThrownBy(() -> storage.uBlocks(new int[] {65_535, 65_536}))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aMerkleFileLeftStaleByACrashBeforeItsHeldWritesReachedItIsRebuiltAtOpen() throws IOException {
        int k = 16; // deeper than the Merkle levels kept in memory: the file holds the lower nodes
        MerkleTree onDisk = new MerkleTree(1 << k);
        Path merkle = dir.resolve("u.merkle");
        byte[] stale;
        try (DirectoryStorage storage = DirectoryStorage.open(dir, k, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(),
                0)) {
            writeSealed(storage, onDisk, new int[] {3, 4, 5, 30_000});
            storage.force();
            stale = Files.readAllBytes(merkle);
            writeSealed(storage, onDisk, new int[] {6, 7, 30_001, 65_535});
            storage.force(); // u.sealed holds these; the Merkle file is put back as before, as if they never reached it
            MerkleTree lost = new MerkleTree(1 << k);
            writeSealed(storage, lost, new int[] {8, 40_000}); // held, never written: a crash before the flush
            assertThat(storage.root()).isNotEqualTo(onDisk.root());
        }
        Files.write(merkle, stale);
        try (DirectoryStorage storage = DirectoryStorage.open(dir, k, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(),
                0)) {
            assertThat(storage.root()).isEqualTo(onDisk.root());
            for (int index : new int[] {3, 7, 8, 30_001, 40_000, 65_535}) {
                assertThat(storage.proof(index).siblings()).isDeepEqualTo(onDisk.proof(index).siblings());
            }
            assertThat(storage.uSealed(8)).isNull();
        }
    }

    private void writeSealed(DirectoryStorage storage, MerkleTree tree, int[] indices) {
        for (int index : indices) {
            byte[] sealed = sealed();
            storage.setUSealed(index, sealed);
            tree.set(index, MerkleHash.leaf(sealed));
        }
    }

    @Test
    void codeVectorsAreRecordsByIndexAndANeverWrittenOneIsNotRead() throws IOException {
        try (DirectoryStorage storage = DirectoryStorage.open(dir, 4, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(), 0)) {
            LevelStore h = storage.hVectors();
            int[] v = random.ints(WIDTH, 0, 1 << 30).toArray();
            int[] w = random.ints(WIDTH, 0, 1 << 30).toArray();
            h.write(3, Part.Y, 5, v);
            h.write(3, Part.Y, 2, w);
            int[] into = new int[WIDTH];
            h.read(3, Part.Y, 5, into);
            assertThat(into).isEqualTo(v);
            h.read(3, Part.Y, 2, into);
            assertThat(into).isEqualTo(w);
            assertThatThrownBy(() -> h.read(3, Part.X, 5, into)).isInstanceOf(IllegalStateException.class);
            h.write(3, Part.Y, 23, v); // level 3's three run slots: 24 vectors a part
            h.read(3, Part.Y, 23, into);
            assertThat(into).isEqualTo(v);
            assertThatThrownBy(() -> h.read(3, Part.Y, 24, into)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> h.write(3, Part.Y, 0, new int[WIDTH + 1]))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void sealedChecksumsOfHAreKeptPerVectorInFilesAndInMemoryAcrossASpill() throws IOException {
        byte[] x = sealed();
        byte[] y = sealed();
        byte[] x0 = sealed();
        byte[] y0 = sealed();
        long budget = 2L * 3 * WIDTH * Integer.BYTES; // level 0's three run slots in memory
        try (DirectoryStorage storage = DirectoryStorage.open(dir, 4, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(),
                budget)) {
            assertThat(storage.memoryLevels()).isEqualTo(1);
            storage.setSealedH(2, 11, x, y); // level 2: 3 * 4 positions a part
            storage.setSealedH(0, 2, x0, y0);
            assertThat(storage.sealedH(2, Part.Y, 11)).isEqualTo(y);
            assertThat(storage.sealedH(2, Part.X, 11)).isEqualTo(x);
            assertThat(storage.sealedH(2, Part.X, 10)).as("never written").isNull();
            assertThat(storage.sealedH(0, Part.Y, 2)).isEqualTo(y0);
            assertThatThrownBy(() -> storage.setSealedH(2, 12, x, y)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> storage.sealedH(1, Part.X, 6)).isInstanceOf(IllegalArgumentException.class);
            storage.spillMemoryLevels();
            storage.force();
        }
        try (DirectoryStorage storage = DirectoryStorage.open(dir, 4, 0, BLOCK, WIDTH, null, ByteOrder.nativeOrder(),
                budget)) {
            assertThat(storage.sealedH(2, Part.X, 11)).isEqualTo(x);
            assertThat(storage.sealedH(0, Part.X, 2)).as("spilled to its file").isEqualTo(x0);
            storage.clearSealedH();
            assertThat(storage.sealedH(2, Part.Y, 11)).as("a file keeps what a new epoch never reads").isEqualTo(y);
        }
    }

    @Test
    void theHonestServerStoresTheSameCodeInFilesAsInMemory() throws IOException {
        int k = 5;
        int batch = 1;
        MemoryPorServer memory = new MemoryPorServer(k, batch, BLOCK);
        try (DirectoryStorage storage = DirectoryStorage.open(dir, k, batch, BLOCK, WIDTH, null, ByteOrder.nativeOrder(), 0)) {
            HonestPorServer<DirectoryStorage> files = new HonestPorServer<>(storage, LogState.empty(k - batch));
            byte[] key = new byte[32];
            PorClient onMemory = PorClient.initialize(memory, key, new SecureRandom(), s -> { });
            PorClient onFiles = PorClient.initialize(files, key, new SecureRandom(), s -> { });
            SplittableRandom writes = new SplittableRandom(9);
            for (int i = 0; i < 32 + 23; i++) { // a C rebuild, then t = 11 and a pending block
                int index = writes.nextInt(1 << k);
                byte[] block = RandomBytes.of(writes, BLOCK);
                onMemory.write(index, block);
                onFiles.write(index, block);
            }
            assertThat(files.state()).isEqualTo(memory.state());
            CodeParameters h = storage.hParameters();
            List<LogRun> runs = DeamortizedSchedule.runs(h.k(), files.state().t());
            assertThat(runs).extracting(LogRun::level).containsExactly(2, 2, 1, 0); // adds 1..4, 5..8, 9 and 10, 11
            for (LogRun run : runs) {
                assertSameVectors(memory.storage().hVectors(), storage.hVectors(), run.level(), run.offset(),
                        run.size());
            }
            int cLevel = storage.cParameters().cLevel();
            assertSameVectors(memory.storage().cVectors(), storage.cVectors(), cLevel, 0, 1 << k);
            for (int i = 0; i < 1 << k; i++) {
                assertThat(files.read(i).block()).isEqualTo(memory.read(i).block());
            }
            assertThat(onFiles.audit().passed()).isTrue();
        }
    }

    private static void assertSameVectors(LevelStore expected, LevelStore actual, int level, int from, int size) {
        int[] a = new int[expected.width()];
        int[] b = new int[actual.width()];
        for (Part part : Part.values()) {
            for (int i = from; i < from + size; i++) {
                expected.read(level, part, i, a);
                actual.read(level, part, i, b);
                assertThat(b).as("level %d %s %d", level, part, i).isEqualTo(a);
            }
        }
    }
}

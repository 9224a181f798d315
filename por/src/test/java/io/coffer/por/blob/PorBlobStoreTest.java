package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.ClientStateFile;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.Part;
import io.coffer.por.store.ServerStorage;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.StorageFullException;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The PoR pack store: packs in U, damage found and repaired, audits, the map rebuilt from U, a full store (one that
 * grows: {@link PorBlobStoreGrowTest}).
 */
class PorBlobStoreTest extends WithPorStore {
    private static final int BLOCK = 4096;

    private static byte[] random(int length, long seed) {
        byte[] out = new byte[length];
        new Random(seed).nextBytes(out);
        return out;
    }

    private ServerStorage storage() {
        return f.server.storage();
    }

    private int[] blocksOf(String name) {
        return f.metadata.blockMap().entry(name).orElseThrow().blocks();
    }

    @Test
    void packsGoToUAndEverythingElseToTheInnerStore() throws IOException {
        f = PorStoreFixture.open(dir, 8, 0, BLOCK);
        byte[] pack = random(10_000, 1);
        f.store.put("p/ab/pack1", BlobContent.of(pack));
        f.store.put("m/manifest", BlobContent.of(new byte[] {1, 2}));

        assertThat(f.inner.head("p/ab/pack1")).isEmpty();
        assertThat(f.inner.head("m/manifest")).isPresent();
        assertThat(f.store.blocksUsed()).isEqualTo(3); // header + 10,000 bytes in 4 KiB blocks
        assertThat(f.store.read("p/ab/pack1", 0, pack.length)).isEqualTo(pack);
        assertThat(f.store.read("p/ab/pack1", 4090, 20)).isEqualTo(java.util.Arrays.copyOfRange(pack, 4090, 4110));
        int first = blocksOf("p/ab/pack1")[0];
        assertThat(new String(storage().u(first), 0, 8, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("CPORBLOB");
    }

    @Test
    void aDamagedBlockIsRepairedWhenReadAndTheRightBytesComeBack() throws IOException {
        f = PorStoreFixture.open(dir, 8, 0, BLOCK);
        byte[] pack = random(30_000, 2);
        f.store.put("p/damaged", BlobContent.of(pack));
        int victim = blocksOf("p/damaged")[3];
        byte[] original = storage().u(victim).clone();
        storage().u(victim)[100] ^= 0x40; // in place: the server's U now holds a corrupted block

        assertThat(f.store.blocksRepairedOnRead()).isZero();
        assertThat(f.store.read("p/damaged", 0, pack.length)).isEqualTo(pack);
        assertThat(storage().u(victim)).isEqualTo(original);
        assertThat(f.store.blocksRepairedOnRead()).isEqualTo(1);
    }

    @Test
    void concurrentReadsBesideWritesAndDeletesReturnExactBytesAndADamagedBlockIsRepairedOnce() throws Exception {
        f = PorStoreFixture.open(dir, 8, 2, BLOCK);
        byte[][] packs = new byte[4][];
        for (int i = 0; i < packs.length; i++) {
            packs[i] = random(40_000, 40 + i);
            f.store.put("p/read-" + i, BlobContent.of(packs[i]));
        }
        int victim = blocksOf("p/read-0")[5];
        byte[] original = storage().u(victim).clone();
        storage().u(victim)[7] ^= 0x10;

        java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            List<java.util.concurrent.Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                long seed = t;
                done.add(readers.submit(() -> {
                    Random r = new Random(seed);
                    int checked = 0;
                    for (int i = 0; i < 40; i++) {
                        int p = i == 0 ? 0 : r.nextInt(packs.length); // every reader meets the damaged pack first
                        int from = i == 0 ? 0 : r.nextInt(packs[p].length);
                        int length = i == 0 ? packs[p].length : r.nextInt(packs[p].length - from + 1);
                        byte[] got = f.store.read("p/read-" + p, from, length);
                        assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(packs[p], from, from + length));
                        checked++;
                    }
                    return checked;
                }));
            }
            for (int i = 0; i < 10; i++) { // the writer changes U and the root under the readers
                f.store.put("p/write-" + i, BlobContent.of(random(9_000, 100 + i)));
                if (i % 2 == 1) {
                    f.store.delete("p/write-" + (i - 1));
                }
            }
            for (java.util.concurrent.Future<Integer> d : done) {
                assertThat(d.get()).isEqualTo(40);
            }
        } finally {
            readers.shutdown();
        }
        assertThat(storage().u(victim)).isEqualTo(original);
        assertThat(f.store.blocksRepairedOnRead()).isEqualTo(1);
        assertThat(f.store.audit().passed()).isTrue();
    }

    @Test
    void aBlockThatCannotBeRepairedIsAnIOExceptionNamingTheBlobAndBlock() throws IOException {
        f = PorStoreFixture.open(dir, 6, 0, BLOCK);
        byte[] pack = random(20_000, 3);
        f.store.put("p/lost", BlobContent.of(pack));
        int victim = blocksOf("p/lost")[2];
        storage().u(victim)[0] ^= 1;
        int cLevel = storage().cParameters().cLevel();
        for (int i = 0; i < storage().n(); i++) { // all of C and H gone: nothing to decode from
            storage().cVectors().erase(cLevel, Part.X, i);
            storage().cVectors().erase(cLevel, Part.Y, i);
        }
        for (int level = 0; level <= storage().hParameters().k(); level++) {
            for (int i = 0; i < storage().hParameters().partSize(level); i++) {
                if (storage().hVectors().contains(level, Part.X, i)) {
                    storage().hVectors().erase(level, Part.X, i);
                    storage().hVectors().erase(level, Part.Y, i);
                }
            }
        }

        assertThatThrownBy(() -> f.store.read("p/lost", 0, pack.length)).isInstanceOf(IOException.class)
                .hasMessageContaining("p/lost").hasMessageContaining("block 2 (U[" + victim + "])");
    }

    @Test
    void auditPassesOnAnHonestStoreAndFailsOnceHalfOfCIsDestroyed() throws IOException {
        f = PorStoreFixture.open(dir, 8, 0, BLOCK);
        for (int i = 0; i < 5; i++) {
            f.store.put("p/pack" + i, BlobContent.of(random(9_000 + i, i)));
        }
        PorAuditReport honest = f.store.audit();
        assertThat(honest.passed()).as(honest.detail()).isTrue();
        assertThat(honest.vectorsSampled()).isPositive();
        assertThat(honest.levelsChecked()).isGreaterThanOrEqualTo(1);
        assertThat(honest.bytesDown()).isPositive();
        assertThat(honest.bytesUp()).isPositive();

        int cLevel = storage().cParameters().cLevel();
        for (int i = 0; i < storage().n(); i++) {
            storage().cVectors().erase(cLevel, Part.X, i);
        }
        storage().cVectors().erase(cLevel, Part.Y, 0);
        PorAuditReport damaged = f.store.audit();
        assertThat(damaged.passed()).isFalse();
        assertThat(damaged.detail()).isNotBlank();
    }

    @Test
    void repairRestoresThirtyPercentOfTheBlocksCorruptedWhichTheAuditFindsBeforeAndNotAfter() throws IOException {
        f = PorStoreFixture.open(dir, 8, 2, BLOCK);
        List<byte[]> packs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            packs.add(random(20_000 + 1000 * i, 10 + i));
            f.store.put("p/r" + i, BlobContent.of(packs.get(i)));
        }
        List<Integer> mapped = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            for (int b : blocksOf("p/r" + i)) {
                mapped.add(b);
            }
        }
        java.util.Collections.shuffle(mapped, new Random(7));
        int corrupt = mapped.size() * 3 / 10;
        for (int b : mapped.subList(0, corrupt)) {
            storage().u(b)[17] ^= 0x55;
        }
        PorAuditReport found = f.store.audit();
        assertThat(found.passed()).as("C and H are intact, U is not").isFalse();
        assertThat(found.uBlocksSampled()).isEqualTo(Math.min(PorBlobStore.U_SAMPLE, mapped.size()));
        assertThat(found.uBlocksBad()).isPositive();
        assertThat(found.detail()).contains("U: ").contains("coffer repair");

        PorRepairReport report = f.store.repair();

        assertThat(report.blocksChecked()).isEqualTo(mapped.size());
        assertThat(report.blocksDamaged()).isEqualTo(corrupt);
        assertThat(report.blocksRepaired()).isEqualTo(corrupt);
        assertThat(report.unrepairable()).isEmpty();
        assertThat(f.store.repair().blocksDamaged()).isZero();
        PorAuditReport after = f.store.audit();
        assertThat(after.passed()).as(after.detail()).isTrue();
        assertThat(after.uBlocksBad()).isZero();
        for (int i = 0; i < 8; i++) {
            assertThat(f.store.read("p/r" + i, 0, packs.get(i).length)).isEqualTo(packs.get(i));
        }
    }

    @Test
    void aStoreReopenedAfterACrashBetweenBlockWritesAndTheirCommitResynchronisesAndCarriesOn() throws IOException {
        f = PorStoreFixture.open(dir, 8, 0, BLOCK);
        byte[] kept = random(10_000, 40);
        f.store.put("p/kept", BlobContent.of(kept));
        byte[] before = f.metadata.blockMap().state().orElseThrow();
        f.store.put("p/lost", BlobContent.of(random(12_000, 41)));
        // the crash: the server applied the writes, the metadata never committed them
        f.metadata.blockMap().remove("p/lost", before);

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));

        assertThat(reopened.read("p/kept", 0, kept.length)).isEqualTo(kept);
        assertThat(reopened.head("p/lost")).isEmpty();
        byte[] next = random(15_000, 42);
        reopened.put("p/next", BlobContent.of(next));
        assertThat(reopened.read("p/next", 0, next.length)).isEqualTo(next);
        PorAuditReport audit = reopened.audit();
        assertThat(audit.passed()).as(audit.detail()).isTrue();
    }

    @Test
    void aCrashInsideAWriteBatchIsFoundByTheWritingMarkerAndResynchronised() throws IOException {
        f = PorStoreFixture.open(dir, 8, 2, BLOCK);
        byte[] kept = random(10_000, 43);
        f.store.put("p/kept", BlobContent.of(kept));
        byte[] committed = f.metadata.blockMap().state().orElseThrow();
        // the crash: one block reached U inside a write batch (no H add, so the log state is unchanged), nothing
        // was committed, and the marker the put writes first is still there
        PorClient crashed = new PorClient(f.server, ClientState.fromBytes(committed), new SecureRandom(), s -> { });
        crashed.write(200, random(BLOCK, 44));
        Files.createFile(f.backup().resolveSibling(f.backup().getFileName() + ".writing"));

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));

        assertThat(reopened.read("p/kept", 0, kept.length)).isEqualTo(kept);
        byte[] next = random(15_000, 45);
        reopened.put("p/next", BlobContent.of(next));
        assertThat(reopened.read("p/next", 0, next.length)).isEqualTo(next);
        assertThat(reopened.audit().passed()).isTrue();
        assertThat(f.backup().resolveSibling(f.backup().getFileName() + ".writing")).doesNotExist();
    }

    @Test
    void theMapRebuiltFromUEqualsTheOriginalAndALostDatabaseComesBackFromU() throws IOException {
        f = PorStoreFixture.open(dir, 10, 0, 1024); // small blocks: a 300 KiB pack's header spans two
        byte[] big = random(300 << 10, 20);
        f.store.put("p/big", BlobContent.of(big));
        f.store.put("p/small", BlobContent.of(random(500, 21)));
        f.store.put("p/gone", BlobContent.of(random(5000, 22)));
        f.store.put("p/empty", BlobContent.of(new byte[0]));
        f.store.delete("p/gone");
        f.store.put("p/reuse", BlobContent.of(random(3000, 23)));
        List<Entry> original = f.metadata.blockMap().list("", null, 100);

        assertThat(f.store.rebuildMap()).isEqualTo(original);

        PorBlobStore reopened = f.reopen(dir.resolve("fresh.db")); // the database is lost; the backup state is not
        assertThat(f.metadata.blockMap().list("", null, 100)).isEqualTo(original);
        assertThat(reopened.read("p/big", 0, big.length)).isEqualTo(big);
        assertThat(reopened.blocksUsed()).isEqualTo(original.stream().mapToInt(e -> e.blocks().length).sum());
        assertThat(reopened.audit().passed()).isTrue();
    }

    private byte[] backupBytes() {
        return new ClientStateFile(f.backup()).load().toBytes();
    }

    @Test
    void theBackupHoldsTheCommittedStateWhenEachPutAndDeleteReturns() throws IOException {
        f = PorStoreFixture.open(dir, 8, 1, BLOCK);
        for (int i = 0; i < 4; i++) {
            f.store.put("p/" + i, BlobContent.of(random(9_000 + i, 40 + i)));
            assertThat(backupBytes()).isEqualTo(f.metadata.blockMap().state().orElseThrow());
        }
        f.store.delete("p/1");
        assertThat(backupBytes()).isEqualTo(f.metadata.blockMap().state().orElseThrow());
    }

    /**
     * Puts write their backup after the store's lock (several share one write): once they all returned, the backup
     * holds the last committed state, so a lost database comes back from it at the server's log state.
     */
    @Test
    void concurrentPutsLeaveTheNewestStateInTheBackupNoWritingMarkerAndALostDatabaseComesBackFromIt() throws Exception {
        f = PorStoreFixture.open(dir, 10, 1, BLOCK);
        int threads = 4;
        int each = 5;
        List<Thread> running = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < each; i++) {
                        f.store.put("p/" + thread + "-" + i, BlobContent.of(random(6_000, 100 * thread + i)));
                    }
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                }
            });
            th.start();
            running.add(th);
        }
        for (Thread th : running) {
            th.join();
        }
        assertThat(failures).isEmpty();
        // every commit removed the writing marker
        assertThat(f.backup().resolveSibling(f.backup().getFileName() + ".writing")).doesNotExist();
        assertThat(backupBytes()).isEqualTo(f.metadata.blockMap().state().orElseThrow());
        assertThat(ClientState.fromBytes(backupBytes()).hLog()).isEqualTo(f.server.logState());

        PorBlobStore reopened = f.reopen(dir.resolve("lost.db"));
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < each; i++) {
                assertThat(reopened.read("p/" + t + "-" + i, 0, 6_000)).isEqualTo(random(6_000, 100 * t + i));
            }
        }
        assertThat(reopened.audit().passed()).isTrue();
    }

    @Test
    void deletedBlocksAreWrittenAsZeroAndReused() throws IOException {
        f = PorStoreFixture.open(dir, 8, 0, BLOCK);
        f.store.put("p/a", BlobContent.of(random(10_000, 30)));
        int[] freed = blocksOf("p/a");
        f.store.delete("p/a");

        for (int b : freed) {
            assertThat(storage().u(b)).containsOnly(0);
        }
        assertThat(f.store.blocksUsed()).isZero();
        assertThat(f.store.head("p/a")).isEmpty();
        f.store.put("p/b", BlobContent.of(random(10_000, 31)));
        assertThat(blocksOf("p/b")).containsExactlyInAnyOrder(freed);
    }

    @Test
    void aStoreAtItsServersLargestCapacityRefusesAPackWithAClearMessageAndChangesNothing() throws IOException {
        f = PorStoreFixture.open(dir, 4, 0, BLOCK, PorBlobStore.PREPARED_BUDGET_BYTES, 4); // 16 blocks, no growth
        byte[] kept = random(9 * BLOCK, 40);
        f.store.put("p/kept", BlobContent.of(kept));
        int used = f.store.blocksUsed();
        byte[] state = f.metadata.blockMap().state().orElseThrow();

        assertThatThrownBy(() -> f.store.put("p/big", BlobContent.of(random(8 * BLOCK, 41))))
                .isInstanceOf(StorageFullException.class)
                .hasMessageContaining("PoR store full: " + used + " of 16 blocks used, the server's largest store"
                        + " holds 16 blocks");

        assertThat(f.store.blocksUsed()).isEqualTo(used);
        assertThat(f.store.head("p/big")).isEmpty();
        assertThat(f.metadata.blockMap().state()).hasValueSatisfying(s -> assertThat(s).isEqualTo(state));
        assertThat(f.store.read("p/kept", 0, kept.length)).isEqualTo(kept);
        f.store.put("p/fits", BlobContent.of(random(2 * BLOCK, 42)));
        assertThat(f.store.blocksUsed()).isEqualTo(used + 3);
    }

    @Test
    void theStateStoredWithTheMapReopensTheStore() throws IOException {
        f = PorStoreFixture.open(dir, 8, 2, BLOCK);
        byte[] pack = random(12_345, 50);
        f.store.put("p/x", BlobContent.of(pack));
        PorBlobStore again = f.reopen(dir.resolve("meta.db"));

        assertThat(again.read("p/x", 0, pack.length)).isEqualTo(pack);
        again.put("p/y", BlobContent.of(pack));
        assertThat(again.audit().passed()).isTrue();
        try (InputStream in = again.get("p/y", 12_000, -1)) {
            assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(pack, 12_000, pack.length));
        }
    }

    /**
     * A pack's content is read, and its checksums taken, before any of its blocks is written (PackWriter.prepare,
     * outside the store's lock): content that fails part-way leaves U, the map and the client state as they were.
     */
    @Test
    void aPutWhoseContentFailsWritesNoBlockAndTheStoreReopensAndCarriesOn() throws IOException {
        f = PorStoreFixture.open(dir, 8, 2, BLOCK);
        byte[] kept = random(5000, 60);
        f.store.put("p/kept", BlobContent.of(kept));
        int used = f.store.blocksUsed();
        ClientState before = ClientState.fromBytes(f.metadata.blockMap().state().orElseThrow());

        assertThatThrownBy(() -> f.store.put("p/failed", failingAfter(20_000, 40_000)))
                .hasMessageContaining("went away");
        assertThatThrownBy(() -> f.store.put("p/short",
                declaring(5000, () -> new java.io.ByteArrayInputStream(random(3000, 62)))))
                .hasMessageContaining("ended early");
        assertThatThrownBy(() -> f.store.put("p/long",
                declaring(1000, () -> new java.io.ByteArrayInputStream(random(1001, 63)))))
                .hasMessageContaining("more than the 1000 bytes");

        assertThat(f.store.head("p/failed")).isEmpty();
        assertThat(f.store.blocksUsed()).isEqualTo(used);
        assertThat(ClientState.fromBytes(f.metadata.blockMap().state().orElseThrow())).isEqualTo(before);
        java.util.Set<Integer> keptBlocks = new java.util.HashSet<>();
        for (int b : blocksOf("p/kept")) {
            keptBlocks.add(b);
        }
        for (int b = 0; b < storage().n(); b++) {
            if (!keptBlocks.contains(b)) {
                assertThat(storage().u(b)).as("U[%d]", b).isNull();
            }
        }
        PorBlobStore again = f.reopen(dir.resolve("meta.db"));
        assertThat(again.audit().passed()).isTrue();
        assertThat(again.read("p/kept", 0, kept.length)).isEqualTo(kept);
        again.put("p/next", BlobContent.of(kept));
        assertThat(again.read("p/next", 0, kept.length)).isEqualTo(kept);
    }

    /**
     * Beyond the budget of packs read before the lock (here none), a put reads its pack as it writes it: content that
     * fails part-way leaves the blocks it wrote zero again and the state stored, so the store reopens and carries on.
     */
    @Test
    void aPutBeyondThePreparedBudgetWhoseContentFailsZeroesWhatItWroteAndTheStoreReopens() throws IOException {
        f = PorStoreFixture.open(dir, 8, 2, BLOCK, 0);
        byte[] kept = random(5000, 60);
        f.store.put("p/kept", BlobContent.of(kept));
        int used = f.store.blocksUsed();

        assertThatThrownBy(() -> f.store.put("p/failed", failingAfter(20_000, 40_000)))
                .hasMessageContaining("went away");

        assertThat(f.store.head("p/failed")).isEmpty();
        assertThat(f.store.blocksUsed()).isEqualTo(used);
        java.util.Set<Integer> keptBlocks = new java.util.HashSet<>();
        for (int b : blocksOf("p/kept")) {
            keptBlocks.add(b);
        }
        int written = 0;
        for (int b = 0; b < storage().n(); b++) {
            if (!keptBlocks.contains(b) && storage().u(b) != null) {
                assertThat(storage().u(b)).as("U[%d], written for the failed put", b).containsOnly(0);
                written++;
            }
        }
        assertThat(written).as("blocks the failed put wrote before its content failed").isPositive();
        PorBlobStore again = f.reopen(dir.resolve("meta.db"));
        assertThat(again.audit().passed()).isTrue();
        assertThat(again.read("p/kept", 0, kept.length)).isEqualTo(kept);
        again.put("p/next", BlobContent.of(kept));
        assertThat(again.read("p/next", 0, kept.length)).isEqualTo(kept);
    }

    /** Content that declares {@code declared} bytes and fails after {@code good} of them. */
    private static BlobContent failingAfter(int good, long declared) {
        return declaring(declared, () -> new java.io.SequenceInputStream(
                new java.io.ByteArrayInputStream(random(good, 61)), new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("the client went away");
                    }
                }));
    }

    /** Content that declares {@code declared} bytes and reads what {@code stream} gives. */
    private static BlobContent declaring(long declared, java.util.function.Supplier<InputStream> stream) {
        return new BlobContent() {
            @Override
            public long length() {
                return declared;
            }

            @Override
            public InputStream open() {
                return stream.get();
            }
        };
    }

    @Test
    void listingsMergeTheMapWithTheInnerStoreAndHidePackNamesLeftThere() throws IOException {
        f = PorStoreFixture.open(dir, 6, 0, BLOCK);
        f.inner.put("p/leftover", BlobContent.of(new byte[] {1}));
        f.store.put("p/b", BlobContent.of(new byte[] {2}));
        f.store.put("m/a", BlobContent.of(new byte[] {3}));
        f.store.put("q/c", BlobContent.of(new byte[] {4}));

        try (var all = f.store.list("")) {
            assertThat(all.toList()).extracting(io.coffer.sdk.blob.BlobInfo::name).containsExactly("m/a", "p/b", "q/c");
        }
        try (var packs = f.store.list("p/")) {
            assertThat(packs.toList()).extracting(io.coffer.sdk.blob.BlobInfo::name).containsExactly("p/b");
        }
        assertThat(f.store.head("p/leftover")).isEmpty();
    }
}

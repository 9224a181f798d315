package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A stream of a pack ({@link PorBlobStore#get}, read a part of {@link PackStream#PART} at a time) that a consolidation
 * moves while it is open reads on at the pack's new blocks, byte-exact, from any offset; a stream of a pack replaced
 * by a put, or deleted, fails rather than mix versions, also after a move. A ranged read's block that fails its check
 * is read again where the pack is now.
 */
class PackStreamTest extends WithPorStore {
    private static final int BLOCK = 16384;
    private static final int INITIAL_K = 6;
    /** Three and a half parts: a stream of it fetches four times. */
    private static final int BIG = 3 * PackStream.PART + PackStream.PART / 2;

    /**
     * Fillers first, then {@code p/big} (so its blocks lie high in U), and {@code p/low} among the fillers; the
     * fillers deleted, so that a consolidation is due and moves {@code p/big} below the smaller capacity.
     */
    private byte[] bigPackHighInAStoreDueToShrink() throws IOException {
        f = PorStoreFixture.open(dir, INITIAL_K, 2, BLOCK);
        for (int i = 0; i < 6; i++) {
            f.put(f.store, "p/filler" + i, PackStream.PART, i);
        }
        f.put(f.store, "p/big", BIG, 99);
        for (int i = 0; i < 6; i++) {
            f.store.delete("p/filler" + i);
            f.packs.remove("p/filler" + i);
        }
        return f.packs.get("p/big");
    }

    private Entry entry(String name) {
        return f.metadata.blockMap().entry(name).orElseThrow();
    }

    @Test
    void aStreamMidPackReadsOnByteExactWhileAConsolidationMovesThePack() throws IOException {
        byte[] big = bigPackHighInAStoreDueToShrink();
        int capacityBefore = f.store.capacity();
        Entry before = entry("p/big");
        int offset = 12_345; // not on a block boundary: the header's length keeps content at the same place
        byte[] read;
        try (InputStream in = f.store.get("p/big", offset, -1)) {
            byte[] head = in.readNBytes(PackStream.PART + 777); // past the first part, into the second

            PorConsolidationReport report = f.store.consolidate(INITIAL_K);

            assertThat(report.shrank()).isTrue();
            assertThat(report.packsMoved()).isEqualTo(1);
            byte[] rest = in.readAllBytes();
            read = concat(head, rest);
        }
        assertThat(read).isEqualTo(Arrays.copyOfRange(big, offset, big.length));
        Entry after = entry("p/big");
        assertThat(after.blocks()).isNotEqualTo(before.blocks());
        assertThat(Arrays.stream(after.blocks()).max().orElseThrow()).isLessThan(f.store.capacity());
        assertThat(f.store.capacity()).isLessThan(capacityBefore);
        assertThat(Arrays.stream(before.blocks()).max().orElseThrow()).isGreaterThanOrEqualTo(f.store.capacity());
        f.assertEveryPackReadsBack(f.store);
    }

    @Test
    void aStreamOpenedBeforeAMoveAndReadOnlyAfterItReadsTheWholePack() throws IOException {
        byte[] big = bigPackHighInAStoreDueToShrink();
        try (InputStream in = f.store.get("p/big", 0, -1)) {
            assertThat(f.store.consolidate(INITIAL_K).packsMoved()).isEqualTo(1);
            // the first part was fetched at the get, from the old blocks: the rest comes from the new ones
            assertThat(in.readAllBytes()).isEqualTo(big);
        }
    }

    /**
     * Streams and ranged reads of the pack on other threads, in small pieces, while this thread consolidates: every one
     * reads byte-exact, whichever of the moves' steps it meets.
     */
    @Test
    void readsOnOtherThreadsDuringAConsolidationAllReadByteExact() throws Exception {
        byte[] big = bigPackHighInAStoreDueToShrink();
        int[] before = entry("p/big").blocks();
        ExecutorService readers = Executors.newFixedThreadPool(3);
        AtomicBoolean consolidated = new AtomicBoolean();
        try {
            List<Future<Integer>> reads = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                int offset = r * 9_999;
                reads.add(readers.submit(() -> {
                    int passes = 0;
                    do { // at least one pass after the consolidation
                        boolean last = consolidated.get();
                        try (InputStream in = f.store.get("p/big", offset, -1)) {
                            byte[] got = new byte[BIG - offset];
                            for (int at = 0; at < got.length; ) {
                                at += in.read(got, at, Math.min(64 << 10, got.length - at));
                            }
                            assertThat(got).isEqualTo(Arrays.copyOfRange(big, offset, BIG));
                        }
                        int at = (passes * 7_919) % (BIG - BLOCK);
                        assertThat(f.store.read("p/big", at, BLOCK)).isEqualTo(Arrays.copyOfRange(big, at, at + BLOCK));
                        passes++;
                        if (last) {
                            break;
                        }
                    } while (true);
                    return passes;
                }));
            }
            PorConsolidationReport report = f.store.consolidate(INITIAL_K);
            consolidated.set(true);
            for (Future<Integer> read : reads) {
                assertThat(read.get(2, TimeUnit.MINUTES)).isPositive();
            }
            assertThat(report.packsMoved()).isEqualTo(1);
            assertThat(entry("p/big").blocks()).isNotEqualTo(before);
        } finally {
            consolidated.set(true);
            readers.shutdownNow();
        }
        f.assertEveryPackReadsBack(f.store);
    }

    /**
     * A ranged read (the engine's {@code readInto}) whose last block the server serves damaged, and a consolidation
     * that moves the pack and shrinks the store between the read's fetch and its re-read of that block (the lock held
     * by this thread from the fetch's end): the re-read goes to the block's new index, which passes, and the read
     * returns the pack byte-exact with nothing repaired (read at the old index it would fail: cut off by the shrink).
     */
    @Test
    void aBlockThatFailsItsCheckIsReadAgainWhereAConsolidationMovedItsPack() throws Exception {
        byte[] big = bigPackHighInAStoreDueToShrink();
        int[] before = entry("p/big").blocks();
        int last = before[before.length - 1];
        Thread consolidating = Thread.currentThread();
        CountDownLatch served = new CountDownLatch(1);
        AtomicBoolean armed = new AtomicBoolean(true);
        List<Integer> singleReads = Collections.synchronizedList(new ArrayList<>());
        PorServer damaging = (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(),
                new Class<?>[] {PorServer.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(f.server, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("read")) {
                        singleReads.add((Integer) args[0]);
                    }
                    if (method.getName().equals("readBlocks") && ((List<?>) args[0]).contains(last)
                            && armed.compareAndSet(true, false)) {
                        List<ProvenBlock> blocks = new ArrayList<>((List<ProvenBlock>) result);
                        ProvenBlock p = blocks.get(blocks.size() - 1);
                        byte[] damaged = p.block().clone();
                        damaged[0] ^= 1;
                        blocks.set(blocks.size() - 1, new ProvenBlock(p.index(), damaged, p.sealedChecksum(),
                                p.proof()));
                        served.countDown();
                        // the fetch ends (and its lock is released) once the consolidating thread waits for the lock
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (!f.store.lock().hasQueuedThread(consolidating) && System.nanoTime() < deadline) {
                            Thread.sleep(1);
                        }
                        result = blocks;
                    }
                    return result;
                });
        PorBlobStore store = f.reopen(damaging);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            Future<byte[]> read = reader.submit(() -> store.read("p/big", 0, BIG));
            assertThat(served.await(1, TimeUnit.MINUTES)).isTrue();
            PorConsolidationReport report;
            store.lock().lock();
            try {
                report = store.consolidate(INITIAL_K);
            } finally {
                store.lock().unlock();
            }

            assertThat(read.get(1, TimeUnit.MINUTES)).isEqualTo(big);
            assertThat(report.packsMoved()).isEqualTo(1);
            assertThat(last).isGreaterThanOrEqualTo(store.capacity());
            assertThat(store.blocksRepairedOnRead()).isZero();
            int[] after = entry("p/big").blocks();
            assertThat(singleReads).as("the re-read, at the last block's new index").containsExactly(
                    after[after.length - 1]);
        } finally {
            reader.shutdownNow();
        }
        f.assertEveryPackReadsBack(store);
    }

    @Test
    void aStreamOfAPackReplacedByAPutFailsRatherThanMixVersions() throws IOException {
        byte[] big = bigPackHighInAStoreDueToShrink();
        try (InputStream in = f.store.get("p/big", 0, -1)) {
            assertThat(in.readNBytes(PackStream.PART)).isEqualTo(Arrays.copyOf(big, PackStream.PART));
            f.put(f.store, "p/big", BIG, 100); // same name and length, other bytes

            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("replaced or deleted while being read");
        }
    }

    @Test
    void aStreamOfAPackMovedAndThenReplacedOrDeletedFails() throws IOException {
        bigPackHighInAStoreDueToShrink();
        f.put(f.store, "p/gone", BIG, 7);
        try (InputStream replaced = f.store.get("p/big", 0, -1);
                InputStream deleted = f.store.get("p/gone", 0, -1)) {
            replaced.readNBytes(PackStream.PART + 1);
            deleted.readNBytes(PackStream.PART + 1);
            f.store.consolidate(INITIAL_K);
            f.put(f.store, "p/big", BIG, 101);
            f.store.delete("p/gone");

            assertThatThrownBy(replaced::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("replaced or deleted while being read");
            assertThatThrownBy(deleted::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("replaced or deleted while being read");
        }
    }

    @Test
    void everyVersionOfANameIsNewerThanTheLastEvenWithinOneMillisecond() throws IOException {
        f = PorStoreFixture.open(dir, INITIAL_K, 2, BLOCK);
        byte[] content = new byte[BLOCK];
        new Random(3).nextBytes(content);
        Instant last = Instant.EPOCH;
        for (int i = 0; i < 30; i++) { // puts of one block, many a millisecond
            if (i % 3 == 2) {
                f.store.delete("p/same");
            }
            f.store.put("p/same", BlobContent.of(content)); // the same bytes: still another version
            Instant created = entry("p/same").created();
            assertThat(created).isAfter(last);
            last = created;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

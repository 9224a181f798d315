package io.coffer.por.blob;

import io.coffer.por.client.BlocksInUseException;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consolidation of a {@link PorBlobStore} (appendix A.3): due when more than half of the indices ever used are free
 * again (deleted) and the live blocks fit twice over in a smaller capacity, at least {@code minK} (the store's initial
 * capacity); then every pack with a block at or above the new capacity moves to free indices below it and the store
 * shrinks ({@link io.coffer.por.client.PorClient#shrink}). The factor two is the hysteresis: the shrunk store is at
 * most half full, so it grows again only once its live data doubles, and shrinks again only once it halves.
 *
 * <p>A move is a put of the same bytes under the same name and creation time into the chosen indices, crash-safe as
 * a put that replaces a pack is: the writing marker is set, the new copy written with its first block (the header)
 * last, then one metadata transaction switches the map row (the old blocks freed there), and only then are the old
 * blocks zeroed, the first one (the header) first. A crash before the switch leaves the old copy mapped and the new
 * blocks free; one after it leaves the new copy mapped and the old blocks free, zeroed or not. A map rebuilt from U
 * ({@link MapRebuild}: the newest header of a name wins, equal times the lower first block) finds two complete copies
 * at most, both valid, or one whose header is gone. Each pack is moved under the store's lock, so puts, deletes and
 * reads go on between moves; a pack put at or above the new capacity meanwhile is moved at the shrink, under the
 * lock. A stream of a pack moved meanwhile reads on at its new blocks ({@link PackStream}).
 */
final class Consolidation {
    private static final Logger LOG = LoggerFactory.getLogger(PorBlobStore.class);

    private final PorBlobStore store;
    private int packsMoved;
    private long blocksMoved;

    Consolidation(PorBlobStore store) {
        this.store = store;
    }

    /**
     * The capacity exponent the store shrinks to, or {@code k} when no consolidation is due: the smallest one, at least
     * {@code minK} and the batch exponent, that holds twice the blocks in use (so it is due once at most a quarter of
     * the capacity is in use: appendix A.3's "more than half deleted", with a factor two of hysteresis).
     */
    static int target(FreeIndices free, int k, int minK, int batchExponent) {
        int target = Math.max(minK, batchExponent);
        while (target < k && 1L << target < 2L * free.used()) {
            target++;
        }
        return Math.min(target, k);
    }

    PorConsolidationReport run(int minK) throws IOException {
        long start = System.nanoTime();
        int from;
        int to;
        int used;
        List<Entry> moving;
        store.lock().lock();
        try {
            store.resyncIfAChangeFailed();
            FreeIndices free = store.free();
            from = store.client().state().k();
            used = free.used();
            to = target(free, from, minK, store.client().state().batchExponent());
            if (to >= from) {
                return new PorConsolidationReport(1 << from, 1 << from, used, 0, 0, took(start));
            }
            moving = above(store.map(), 1 << to);
        } finally {
            store.lock().unlock();
        }
        LOG.info("PoR store consolidating: {} of {} blocks in use; {} packs to move below {}", used, 1 << from,
                moving.size(), 1 << to);
        for (Entry e : moving) {
            store.lock().lock();
            try {
                Entry now = store.map().entry(e.name()).orElse(null);
                if (now != null && highest(now) >= 1 << to) {
                    move(now, 1 << to);
                }
            } finally {
                store.lock().unlock();
            }
        }
        store.lock().lock();
        try {
            for (Entry e : above(store.map(), 1 << to)) { // put meanwhile
                move(e, 1 << to);
            }
            shrinkTo(to);
        } finally {
            store.lock().unlock();
        }
        PorConsolidationReport report = new PorConsolidationReport(1 << from, 1 << to, used, packsMoved, blocksMoved,
                took(start));
        LOG.info("PoR store shrunk from {} to {} blocks: {} packs ({} blocks) moved, {} ms", 1 << from, 1 << to,
                packsMoved, blocksMoved, report.took().toMillis());
        return report;
    }

    /** Moves {@code entry} to free indices below {@code limit}; the store's lock is held. */
    private void move(Entry entry, int limit) throws IOException {
        int count = entry.blocks().length;
        int[] blocks = store.free().peekBelow(count, limit);
        if (blocks == null || entry.length() > Integer.MAX_VALUE) {
            throw new IOException("PoR store: no room below " + limit + " blocks for " + entry.name() + " ("
                    + count + " blocks); the store stays at " + store.capacity());
        }
        byte[] content = new byte[(int) entry.length()];
        store.reader().fetch(entry, 0, content.length).copyVerified(content, 0);
        replace(entry, new PackHeader(entry.name(), entry.length(), entry.created(), blocks), content);
        packsMoved++;
        blocksMoved += count;
    }

    /**
     * Shrinks the store to 2^k blocks ({@link io.coffer.por.client.PorClient#shrink}) once no mapped block lies at or
     * above that (the lock held): the writing marker covers it as it covers a grow, and the map's free blocks, cut to
     * the new capacity, are committed with the state in one transaction (a crash before that commit: the next open
     * resynchronises to the server's k, which the map allows, and cuts the free blocks as it loads them).
     */
    private void shrinkTo(int k) throws IOException {
        StateKeeper state = store.state();
        state.markWriting();
        try {
            try {
                store.client().shrink(k);
            } catch (BlocksInUseException e) {
                zeroLeftovers(e);
                store.client().shrink(k);
            }
        } catch (RuntimeException e) {
            if (store.server().k() != store.client().state().k()) { // shrunk, its answer lost: follow it now
                try {
                    store.resyncIfApart();
                } catch (IOException | RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            throw new IOException("cannot shrink the PoR store to " + (1 << k) + " blocks: " + e.getMessage(), e);
        }
        store.resized();
        List<Entry> entries = new ArrayList<>();
        for (List<Entry> page = store.map().list("", null, PorBlobStore.PAGE); !page.isEmpty();
                page = store.map().list("", page.get(page.size() - 1).name(), PorBlobStore.PAGE)) {
            entries.addAll(page);
        }
        store.map().replaceAll(entries, store.free().stored(), state.stateBytes());
        state.saveBackup();
        state.clearWriting();
    }

    /**
     * Zeroes the blocks a shrink found in use where the map has them free (a crash after a move's or a delete's commit
     * and before its zeroing left them); one the map holds is a fault, not a leftover.
     */
    private void zeroLeftovers(BlocksInUseException e) throws IOException {
        int[] leftovers = e.indices().stream().mapToInt(Integer::intValue).toArray();
        for (int i : leftovers) {
            if (!store.free().isFree(i)) {
                throw e;
            }
        }
        LOG.info("PoR store: zeroing {} free blocks a crash left unzeroed before shrinking", leftovers.length);
        store.writer().zero(leftovers);
    }

    /**
     * Writes the moving pack under {@code header} (its first block last) and switches {@code old}'s map row to it,
     * as a put that replaces a pack does: one transaction, the old blocks zeroed (header first) after it.
     */
    private void replace(Entry old, PackHeader header, byte[] content) throws IOException {
        StateKeeper state = store.state();
        FreeIndices free = store.free();
        state.markWriting();
        store.writer().writeHeaderLast(old.name(), content, header);
        store.map().put(new Entry(old.name(), old.length(), header.blocks(), old.created()),
                free.nextUnusedAfter(header.blocks()), state.stateBytes());
        free.take(header.blocks());
        store.zeroing();
        try {
            store.writer().zero(old.blocks());
        } finally {
            free.free(old.blocks());
            state.persistState();
        }
        state.saveBackup();
        state.clearWriting();
    }

    /** The entries with a block at or above {@code limit}. */
    private static List<Entry> above(BlockMapStore map, int limit) {
        List<Entry> out = new ArrayList<>();
        String after = null;
        for (List<Entry> page = map.list("", null, PorBlobStore.PAGE); !page.isEmpty();
                page = map.list("", after, PorBlobStore.PAGE)) {
            for (Entry e : page) {
                if (highest(e) >= limit) {
                    out.add(e);
                }
            }
            after = page.get(page.size() - 1).name();
        }
        return out;
    }

    private static int highest(Entry e) {
        int max = -1;
        for (int b : e.blocks()) {
            max = Math.max(max, b);
        }
        return max;
    }

    private static Duration took(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}

package io.coffer.sdk.engine;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.manifest.ManifestEntry;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The decrypted chunks at the edges of ranged GETs, each fetched by one GET and handed to the GET of the neighbouring
 * range: a transfer manager cuts an object into ranges that rarely end on a chunk boundary, and starts neighbouring
 * ranges at about the same time, so without this the chunk that straddles two ranges is read from the backend and
 * decrypted by both (7-10 % of the bytes of 16 MiB ranges; docs/BENCHMARKS.md, "Issue 23's large GET (get23c)").
 *
 * <p>A GET that is about to fetch an edge chunk nobody else has {@link #produce}s it: the chunk is announced at once,
 * so that a neighbour planning its reads meanwhile {@link #claim}s it instead of fetching it too, and waits for it
 * (the producer's fetch was queued first). Once decrypted, the producer {@link #finish}es it: a copy goes to the
 * claimant, or is kept for one. Memory: at most {@code maxEntries} chunks announced or kept, and at most {@code
 * maxBytes} kept, each kept copy counted in the read budget (taken only if the budget has it free, never waited for)
 * until it is dropped or its claimant closes the share it got with it. The oldest go first. A chunk is handed out only
 * for the same chunk id and the same chunk key as the claimant's manifest entry, so a claim gives no one bytes they
 * could not have decrypted.
 */
final class BoundaryChunks {
    /** A verified plaintext chunk and the read budget it holds. */
    record Kept(byte[] plain, BufferBudget.Reservation share) {
    }

    /** One edge chunk, being fetched ({@code result} pending) or kept (done); null as result: not kept after all. */
    static final class Slot {
        private final ManifestEntry chunk;
        private final CompletableFuture<Kept> result = new CompletableFuture<>();
        private boolean claimed;
        /** Its producer's first {@link #finish} has run: later ones change nothing. */
        private boolean finished;
        private long kept;

        private Slot(ManifestEntry chunk) {
            this.chunk = chunk;
        }
    }

    private final BufferBudget budget;
    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<ChunkId, Slot> slots = new LinkedHashMap<>();
    private long bytes;

    BoundaryChunks(BufferBudget budget, int maxEntries, long maxBytes) {
        this.budget = budget;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** Whether {@link #claim} would now find {@code chunk}, fetched or being fetched. */
    synchronized boolean has(ManifestEntry chunk) {
        Slot s = slots.get(chunk.id());
        return s != null && matches(s, chunk);
    }

    /**
     * Takes {@code chunk} for the caller: a future of its plaintext and read budget share (the caller closes it), or of
     * null if its producer could not keep it; null if no GET announced or kept it.
     */
    synchronized CompletableFuture<Kept> claim(ManifestEntry chunk) {
        Slot s = slots.get(chunk.id());
        if (s == null || !matches(s, chunk)) {
            return null;
        }
        slots.remove(chunk.id());
        bytes -= s.kept;
        s.kept = 0;
        s.claimed = true;
        return s.result;
    }

    /** Announces that the caller fetches {@code chunk}; null if another GET has already (or there is no room). */
    synchronized Slot produce(ManifestEntry chunk) {
        if (maxEntries == 0 || footprint(chunk.length()) > maxBytes || slots.containsKey(chunk.id())) {
            return null;
        }
        while (slots.size() >= maxEntries) {
            dropOldest(null);
        }
        Slot s = new Slot(chunk);
        slots.put(chunk.id(), s);
        return s;
    }

    /**
     * The producer's verified plaintext of {@code slot}'s chunk: {@code length} bytes at {@code offset} of {@code run};
     * {@code run} null if the fetch failed or was given up. Idempotent: only the first call counts.
     */
    void finish(Slot slot, byte[] run, int offset, int length) {
        Kept kept = null;
        if (run != null && !slot.result.isDone()) {
            BufferBudget.Reservation share = budget.tryReserve(footprint(length));
            if (share != null) {
                kept = new Kept(Arrays.copyOfRange(run, offset, offset + length), share);
            }
        }
        boolean handOver;
        synchronized (this) {
            if (slot.finished) {
                if (kept != null) {
                    kept.share.close();
                }
                return;
            }
            slot.finished = true;
            handOver = kept != null && (slot.claimed || keep(slot, footprint(length)));
            if (!slot.claimed && slots.get(slot.chunk.id()) == slot && !handOver) {
                slots.remove(slot.chunk.id());
            }
        }
        if (handOver) {
            slot.result.complete(kept);
        } else {
            if (kept != null) {
                kept.share.close();
            }
            slot.result.complete(null);
        }
    }

    /** Drops every kept chunk and gives its memory back to the read budget. */
    synchronized void clear() {
        while (!slots.isEmpty()) {
            dropOldest(null);
        }
    }

    /** The read budget that kept, unclaimed chunks hold now, in bytes. */
    synchronized long keptBytes() {
        return bytes;
    }

    /** Counts {@code footprint} kept for an unclaimed slot still announced, dropping older ones for room; or false. */
    private boolean keep(Slot slot, long footprint) {
        if (slots.get(slot.chunk.id()) != slot) {
            return false; // dropped meanwhile
        }
        while (bytes + footprint > maxBytes && slots.size() > 1) {
            dropOldest(slot);
        }
        if (bytes + footprint > maxBytes) {
            return false;
        }
        slot.kept = footprint;
        bytes += footprint;
        return true;
    }

    /** What a kept chunk of {@code length} bytes holds of the read budget (which counts in KiB). */
    private static long footprint(int length) {
        return (length + 1023L) & ~1023L;
    }

    private static boolean matches(Slot s, ManifestEntry chunk) {
        return s.chunk.length() == chunk.length() && s.chunk.key().equals(chunk.key());
    }

    /** Drops the oldest slot other than {@code spare}: its kept copy's memory goes back; a producer's finish sees it. */
    private void dropOldest(Slot spare) {
        Iterator<Map.Entry<ChunkId, Slot>> it = slots.entrySet().iterator();
        while (it.hasNext()) {
            Slot s = it.next().getValue();
            if (s == spare) {
                continue;
            }
            it.remove();
            if (s.kept > 0) {
                bytes -= s.kept;
                s.kept = 0;
                s.result.join().share.close();
            }
            return;
        }
    }
}

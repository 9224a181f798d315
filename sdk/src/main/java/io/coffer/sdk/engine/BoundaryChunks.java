package io.coffer.sdk.engine;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.manifest.ManifestEntry;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The decrypted chunks at the edges of recent ranged GETs, each kept until the GET of the neighbouring range takes it:
 * a transfer manager cuts an object into ranges that rarely end on a chunk boundary, so without this the chunk that
 * straddles two ranges is read from the backend and decrypted by both (7-10 % of the bytes of 16 MiB ranges;
 * docs/BENCHMARKS.md, "Issue 23's large GET (get23c)").
 *
 * <p>Memory: at most {@code maxEntries} chunks and {@code maxBytes}, each counted in the read budget while kept (taken
 * only if the budget has it free, never waited for); a GET that takes a chunk takes its reservation with it and gives
 * both back once it has passed the chunk. The oldest go first. An entry is handed out only for the same chunk id and
 * the same chunk key as the caller's manifest entry, so a hit gives no one bytes they could not have decrypted.
 */
final class BoundaryChunks {
    /** A verified plaintext chunk and the read budget it holds. */
    record Kept(byte[] plain, BufferBudget.Reservation share) {
    }

    private record Entry(ManifestEntry chunk, Kept kept) {
    }

    private final BufferBudget budget;
    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<ChunkId, Entry> entries = new LinkedHashMap<>();
    private long bytes;

    BoundaryChunks(BufferBudget budget, int maxEntries, long maxBytes) {
        this.budget = budget;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /**
     * Keeps a copy of {@code length} plaintext bytes at {@code offset} of {@code run}, the verified chunk {@code
     * chunk}, if the limits and the read budget allow.
     */
    void offer(ManifestEntry chunk, byte[] run, int offset, int length) {
        long footprint = footprint(length);
        if (maxEntries == 0 || footprint > maxBytes) {
            return;
        }
        synchronized (this) {
            if (entries.containsKey(chunk.id())) {
                return;
            }
            while (!entries.isEmpty() && (entries.size() >= maxEntries || bytes + footprint > maxBytes)) {
                dropOldest();
            }
        }
        BufferBudget.Reservation share = budget.tryReserve(footprint);
        if (share == null) {
            return;
        }
        byte[] copy = Arrays.copyOfRange(run, offset, offset + length);
        synchronized (this) {
            if (entries.containsKey(chunk.id()) || entries.size() >= maxEntries || bytes + footprint > maxBytes) {
                share.close(); // another GET kept it, or others filled the room meanwhile
                return;
            }
            entries.put(chunk.id(), new Entry(chunk, new Kept(copy, share)));
            bytes += footprint;
        }
    }

    /** Whether {@link #take} would now find {@code chunk}. */
    synchronized boolean has(ManifestEntry chunk) {
        Entry e = entries.get(chunk.id());
        return e != null && matches(e, chunk);
    }

    /** Removes and returns the kept copy of {@code chunk}; null if there is none for its id and key. */
    synchronized Kept take(ManifestEntry chunk) {
        Entry e = entries.get(chunk.id());
        if (e == null || !matches(e, chunk)) {
            return null;
        }
        entries.remove(chunk.id());
        bytes -= footprint(e.kept.plain.length);
        return e.kept;
    }

    /** Drops every kept chunk and gives its memory back to the read budget. */
    synchronized void clear() {
        while (!entries.isEmpty()) {
            dropOldest();
        }
    }

    /** What a kept chunk of {@code length} bytes holds of the read budget (which counts in KiB). */
    private static long footprint(int length) {
        return (length + 1023L) & ~1023L;
    }

    /** The read budget that kept chunks hold now, in bytes. */
    synchronized long keptBytes() {
        return bytes;
    }

    private static boolean matches(Entry e, ManifestEntry chunk) {
        return e.chunk.length() == chunk.length() && e.chunk.key().equals(chunk.key());
    }

    private void dropOldest() {
        Iterator<Map.Entry<ChunkId, Entry>> it = entries.entrySet().iterator();
        Entry e = it.next().getValue();
        it.remove();
        bytes -= footprint(e.kept.plain.length);
        e.kept.share.close();
    }
}

package io.coffer.sdk.engine;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Reusable byte arrays for the read path's runs. A GET reads a run of up to 4 MiB per backend request; allocating each
 * afresh cost the JVM a zeroed 4 MiB humongous object per run (measured: docs/BENCHMARKS.md, "Figures the code
 * cites"). At most {@code retained} arrays are kept between GETs; beyond that, and for runs longer than
 * one array, arrays are allocated and left to the garbage collector as before.
 *
 * <p>A returned array still holds the decrypted bytes of the object it last served; it is only ever read within the
 * bounds of the run that the next reader fetched into it, so nothing of the old content is handed out.
 */
final class RunBuffers {
    private final int size;
    private final ArrayBlockingQueue<byte[]> free;

    RunBuffers(int size, int retained) {
        this.size = size;
        this.free = new ArrayBlockingQueue<>(Math.max(1, retained));
    }

    /**
     * An array of at least {@code length} bytes, whose content is unspecified: a pooled one, or for a run of at most a
     * quarter of the pooled size or longer than it, one of exactly {@code length} bytes (a small object's GET then
     * holds its own size, not a whole pooled array).
     */
    byte[] take(int length) {
        if (length > size || isSmall(length)) {
            return new byte[length];
        }
        byte[] b = free.poll();
        return b != null ? b : new byte[size];
    }

    /** The bytes that {@link #take} hands out for a run of {@code length}, which a read reserves for it. */
    long footprint(int length) {
        return length > size || isSmall(length) ? length : size;
    }

    private boolean isSmall(int length) {
        return length <= size / 4;
    }

    /**
     * Gives back an array from {@link #take}; the caller must hold no reference to it afterwards.
     *
     * @throws IllegalStateException if the array is already in the pool: two readers would then share it, one
     *     overwriting what the other is about to return, so a bug that gives an array twice must fail loudly
     */
    void give(byte[] b) {
        if (b == null || b.length != size) {
            return;
        }
        if (free.contains(b)) { // identity: arrays do not override equals; at most a few entries to scan
            throw new IllegalStateException("a run buffer was given back twice");
        }
        free.offer(b);
    }

    /** Arrays waiting in the pool (for tests). */
    int pooled() {
        return free.size();
    }
}

package io.coffer.sdk.engine;

import java.lang.ref.SoftReference;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable byte arrays of one size: the read path's runs ({@link RunArrays} keeps two sizes), and the write path's
 * pack buffers and chunk-reader windows ({@link EngineContext#packArrays}). A GET reads a run of up to 8 MiB per
 * backend request; allocating each afresh cost the JVM a zeroed humongous object per run (measured:
 * docs/BENCHMARKS.md, "Figures the code cites"). At most {@code retained} arrays are kept between uses; up to {@code
 * softlyRetained} more are kept through soft references, which the garbage collector clears when the heap runs short
 * or they go unused: several concurrent GETs (a transfer manager's ranged downloads: eight streams of up to five runs
 * each) need more arrays at once than are worth holding for good, and allocating the rest cost a zeroed humongous
 * array per run (docs/BENCHMARKS.md, "Figures the code cites"). For runs longer than one array, arrays are allocated
 * and left to the garbage collector as before.
 *
 * <p>A returned array still holds the bytes of its last use (decrypted chunks, a body's plaintext, a pack's
 * ciphertext); its next user only reads what it wrote or fetched into it, so nothing of the old content is handed out.
 */
final class RunBuffers {
    private final int size;
    private final ArrayBlockingQueue<byte[]> free;
    private final ConcurrentLinkedQueue<SoftReference<byte[]>> softlyFree = new ConcurrentLinkedQueue<>();
    /**
     * Bytes of the arrays in {@link #softlyFree}, cleared ones included (they are dropped when met), added up with
     * those of any pool that shares the counter; at most {@link #softLimit}.
     */
    private final AtomicLong softBytes;
    private final long softLimit;

    RunBuffers(int size, int retained) {
        this(size, retained, 0);
    }

    RunBuffers(int size, int retained, int softlyRetained) {
        this(size, retained, new AtomicLong(), (long) Math.max(0, softlyRetained) * size);
    }

    /**
     * A pool whose softly kept arrays count against {@code softLimit} bytes together with those of every other pool
     * given the same {@code softBytes} ({@link RunArrays}: two sizes, one limit, so that both do not each keep their
     * peak).
     */
    RunBuffers(int size, int retained, AtomicLong softBytes, long softLimit) {
        this.size = size;
        this.free = new ArrayBlockingQueue<>(Math.max(1, retained));
        this.softBytes = softBytes;
        this.softLimit = Math.max(0, softLimit);
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
        while (b == null) {
            SoftReference<byte[]> ref = softlyFree.poll();
            if (ref == null) {
                return new byte[size];
            }
            softBytes.addAndGet(-size);
            b = ref.get();
        }
        return b;
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
        if (free.contains(b) || softlyFree.stream().anyMatch(r -> r.get() == b)) { // identity; a few entries
            throw new IllegalStateException("a run buffer was given back twice");
        }
        if (free.offer(b)) {
            return;
        }
        if (softBytes.addAndGet(size) <= softLimit) {
            softlyFree.offer(new SoftReference<>(b));
        } else {
            softBytes.addAndGet(-size);
        }
    }

    /** Arrays waiting in the pool, strongly held (for tests). */
    int pooled() {
        return free.size();
    }

    /** Arrays waiting in the pool through soft references not cleared yet (for tests). */
    int softlyPooled() {
        return (int) softlyFree.stream().filter(r -> r.get() != null).count();
    }
}

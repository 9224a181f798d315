package io.coffer.sdk.engine;

import java.lang.ref.SoftReference;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable byte arrays of one size: the read path's runs ({@link RunArrays} keeps two sizes), and the write path's
 * pack buffers and chunk-reader windows ({@link EngineContext#packArrays}). A GET reads a run of up to 8 MiB per
 * backend request; allocating each afresh cost the JVM a zeroed humongous object per run (measured:
 * docs/BENCHMARKS.md, "Figures the code cites"). At most {@code retained} arrays are kept between uses; up to {@code
 * softlyRetained} more are kept through soft references, which the garbage collector clears when the heap runs short
 * or they go unused: several concurrent GETs (a transfer manager's ranged downloads: eight streams of up to five runs
 * each) need more arrays at once than are worth holding for good, and allocating the rest cost a zeroed humongous
 * array per run (docs/BENCHMARKS.md, "Figures the code cites"). Softly kept arrays are taken most recently given
 * first, and with an {@link IdleArrays} group those unused for its idle time are dropped: soft references alone outlive
 * the work that needed them. For runs longer than one array, arrays are allocated and left to the garbage collector as
 * before.
 *
 * <p>A returned array still holds the bytes of its last use (decrypted chunks, a body's plaintext, a pack's
 * ciphertext); its next user only reads what it wrote or fetched into it, so nothing of the old content is handed out.
 */
final class RunBuffers {
    private final int size;
    private final ArrayBlockingQueue<byte[]> free;
    /** Most recently given first; each stamped with when it was given ({@link IdleArrays#now}). */
    private final ConcurrentLinkedDeque<Kept> softlyFree = new ConcurrentLinkedDeque<>();
    /**
     * Bytes of the arrays in {@link #softlyFree}, cleared ones included (they are dropped when met), added up with
     * those of any pool that shares the counter; at most {@link #softLimit}.
     */
    private final AtomicLong softBytes;
    private final long softLimit;
    /** Null: softly kept arrays stay until the collector clears them. */
    private final IdleArrays idle;

    RunBuffers(int size, int retained) {
        this(size, retained, 0);
    }

    RunBuffers(int size, int retained, int softlyRetained) {
        this(size, retained, new AtomicLong(), (long) Math.max(0, softlyRetained) * size, null);
    }

    /**
     * A pool whose softly kept arrays count against {@code softLimit} bytes together with those of every other pool
     * given the same {@code softBytes} ({@link RunArrays}: two sizes, one limit, so that both do not each keep their
     * peak); with {@code idle} (may be null), those unused for its idle time are dropped.
     */
    RunBuffers(int size, int retained, AtomicLong softBytes, long softLimit, IdleArrays idle) {
        this.size = size;
        this.free = new ArrayBlockingQueue<>(Math.max(1, retained));
        this.softBytes = softBytes;
        this.softLimit = Math.max(0, softLimit);
        this.idle = idle;
        if (idle != null) {
            idle.register(this);
        }
    }

    /** A softly kept array and when it was given back. */
    private static final class Kept extends SoftReference<byte[]> {
        final long keptAt;

        Kept(byte[] array, long keptAt) {
            super(array);
            this.keptAt = keptAt;
        }
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
        sweep();
        byte[] b = free.poll();
        while (b == null) {
            Kept ref = softlyFree.pollFirst();
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
        sweep();
        if (free.offer(b)) {
            return;
        }
        if (softBytes.addAndGet(size) <= softLimit) {
            softlyFree.offerFirst(new Kept(b, idle == null ? 0 : idle.now()));
        } else {
            softBytes.addAndGet(-size);
        }
    }

    private void sweep() {
        if (idle != null) {
            idle.maybeSweep(idle.now());
        }
    }

    /**
     * Drops the softly kept arrays given back before {@code cutoff} (an {@link IdleArrays#now} value): the oldest are
     * at the tail, and a take racing this one takes each array at most once.
     */
    void dropKeptBefore(long cutoff) {
        Kept k;
        while ((k = softlyFree.peekLast()) != null && k.keptAt - cutoff < 0) {
            if (softlyFree.removeLastOccurrence(k)) { // identity: a reference does not override equals
                softBytes.addAndGet(-size);
                k.clear(); // the array is unreachable now, even while the dropped reference object lingers
            }
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

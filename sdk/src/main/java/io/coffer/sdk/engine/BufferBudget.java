package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the memory that the writes, or the reads, of one engine hold together in buffers (the engine keeps one budget
 * for each, so that reads cannot starve writes of memory or the other way round).
 *
 * <p>Writes: each PUT or part reserves, before it reads a byte of its body, the most its writer can hold (the chunk
 * reader's window, a remote key batch, the filling pack and the packs still uploading: {@link
 * ObjectWriter#bufferBound}) and returns it when it ends. Reads: each GET reserves one run of chunks before its
 * response starts and takes its read-ahead runs only as far as the budget allows ({@link #tryReserve}), so a GET
 * always streams and reads ahead when memory is free.
 *
 * <p>A request that gets no reservation within the wait fails with SlowDown (503) having read and stored nothing, and
 * the client retries. A request takes at most one blocking reservation from each budget, before it holds any buffer
 * of that budget, and the read one first where it takes both (UploadPartCopy of a range: its source, then its part),
 * so requests cannot deadlock one another; every wait also ends after the budget's wait. Accounting is in KiB; one
 * request never reserves more than the whole budget.
 */
final class BufferBudget {
    /** Returned by {@link #reserve}; closing it gives the memory back (once). */
    interface Reservation extends AutoCloseable {
        @Override
        void close();
    }

    private static final Reservation NONE = () -> { };

    private final Semaphore kib;
    private final int totalKib;
    private final Duration wait;

    BufferBudget(long bytes, Duration wait) {
        this.totalKib = (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes >> 10));
        this.kib = new Semaphore(totalKib, true);
        this.wait = wait;
    }

    /** Reserves {@code bytes}, waiting for them at most the budget's wait; SlowDown if they do not come free. */
    Reservation reserve(long bytes) {
        int want = kibOf(bytes);
        if (want <= 0) {
            return NONE;
        }
        try {
            if (!kib.tryAcquire(want, wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw CofferException.of(ErrorCode.SLOW_DOWN, "Please reduce your request rate.");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CofferException.of(ErrorCode.SLOW_DOWN, "Please reduce your request rate.");
        }
        return release(want);
    }

    /**
     * Reserves {@code bytes} if they are free right now and no request waits for a reservation, else returns null: for
     * optional buffers (read-ahead), which must not take memory that a waiting request needs to start at all.
     */
    Reservation tryReserve(long bytes) {
        int want = kibOf(bytes);
        if (want <= 0) {
            return NONE;
        }
        // tryAcquire() without a timeout ignores the fair queue: look at the queue first
        return !kib.hasQueuedThreads() && kib.tryAcquire(want) ? release(want) : null;
    }

    private int kibOf(long bytes) {
        return (int) Math.min(totalKib, (bytes + 1023) >> 10);
    }

    private Reservation release(int want) {
        return new Reservation() {
            private boolean released;

            @Override
            public synchronized void close() {
                if (!released) {
                    released = true;
                    kib.release(want);
                }
            }
        };
    }

    /** KiB not reserved right now, for metrics. */
    int availableKib() {
        return kib.availablePermits();
    }
}

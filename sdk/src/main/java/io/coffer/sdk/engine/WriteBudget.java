package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the memory that all writes of one engine hold together in buffers (the chunk reader's window, a remote key
 * batch, the filling pack and the packs still uploading). Each PUT or part reserves, before it reads a byte of its
 * body, the most its writer can hold ({@link ObjectWriter#bufferBound}) and returns it when it ends. A write that gets
 * no reservation within the wait fails with SlowDown (503) having read and stored nothing, and the client retries.
 * Every write takes exactly one reservation, before it holds any buffer, so no write waits while holding memory and
 * writes cannot deadlock one another. Accounting is in KiB; one write never reserves more than the whole budget.
 */
final class WriteBudget {
    /** Returned by {@link #reserve}; closing it gives the memory back (once). */
    interface Reservation extends AutoCloseable {
        @Override
        void close();
    }

    private static final Reservation NONE = () -> { };

    private final Semaphore kib;
    private final int totalKib;
    private final Duration wait;

    WriteBudget(long bytes, Duration wait) {
        this.totalKib = (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes >> 10));
        this.kib = new Semaphore(totalKib, true);
        this.wait = wait;
    }

    Reservation reserve(long bytes) {
        int want = (int) Math.min(totalKib, (bytes + 1023) >> 10);
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

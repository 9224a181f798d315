package io.coffer.gateway.maintenance;

import java.util.function.LongSupplier;

/**
 * Bounds the lifecycle sweep's deletions and aborts to a rate: each {@link #acquire} waits until one interval
 * ({@code 1 / perSecond}) has passed since the previous one was allowed. A wait is never shorter than the interval; a
 * sweep that was slower than the rate (listing, a slow backend) gets no burst to catch up.
 */
final class DeletionPacer {
    /** How the pacer waits (the thread's sleep; tests record the waits instead). */
    interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private long next;
    private boolean started;

    DeletionPacer(double perSecond, LongSupplier nanoTime, Sleeper sleeper) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("lifecycle rate must be a positive number of deletions per second: "
                    + perSecond);
        }
        this.intervalNanos = Math.max(1, (long) (1_000_000_000L / perSecond));
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
    }

    /** A pacer on the system's clock and sleep. */
    static DeletionPacer of(double perSecond) {
        return new DeletionPacer(perSecond, System::nanoTime,
                nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    /** Waits for the next deletion's turn; an interrupt ends the wait and is kept on the thread. */
    void acquire() {
        long now = nanoTime.getAsLong();
        if (started && now - next < 0) {
            try {
                sleeper.sleepNanos(next - now);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            now = next;
        }
        started = true;
        next = now + intervalNanos;
    }
}

package io.coffer.sdk.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Lets an engine's pools ({@link RunBuffers}) drop the arrays they keep softly once those went unused for {@code
 * idleNanos}. Soft references alone keep them: the collector clears one only after about a second per free MiB of
 * heap without a use, so after a large PUT the write path's arrays held a 1 GiB heap at 586-620 MiB through the GETs
 * that followed, above G1's initiating occupancy, and every humongous allocation of those GETs started a concurrent
 * cycle that freed nothing (docs/BENCHMARKS.md, "Levers tried (issue 23)", gc23). A pool in use keeps its working
 * set: the arrays it takes are the ones given back last. No thread of its own: any pool's take or give sweeps every
 * pool of the group, at most twice per {@code idleNanos}, so an idle pool is swept by the busy ones.
 */
final class IdleArrays {
    private final long idleNanos;
    private final LongSupplier clock;
    private final List<RunBuffers> pools = new CopyOnWriteArrayList<>();
    private final AtomicLong nextSweep;

    /** A group whose clock is {@link System#nanoTime}. */
    IdleArrays(long idleNanos) {
        this(idleNanos, System::nanoTime);
    }

    IdleArrays(long idleNanos, LongSupplier clock) {
        if (idleNanos <= 0) {
            throw new IllegalArgumentException("idle time must be positive: " + idleNanos);
        }
        this.idleNanos = idleNanos;
        this.clock = clock;
        this.nextSweep = new AtomicLong(clock.getAsLong() + idleNanos / 2);
    }

    void register(RunBuffers pool) {
        pools.add(pool);
    }

    /** The group's clock, with which a pool stamps each array it keeps softly. */
    long now() {
        return clock.getAsLong();
    }

    /** Sweeps every pool if the last sweep was at least half the idle time ago; one caller sweeps, the rest go on. */
    void maybeSweep(long now) {
        long due = nextSweep.get();
        if (now - due < 0 || !nextSweep.compareAndSet(due, now + idleNanos / 2)) {
            return;
        }
        for (RunBuffers pool : pools) {
            pool.dropKeptBefore(now - idleNanos);
        }
    }
}

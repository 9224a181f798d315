package io.coffer.gateway.maintenance;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Garbage collection while the gateway serves: {@code serve} runs a pass every {@code gc-interval} on one daemon
 * thread, the first one interval after the start. The engine takes the store's gc lease for each pass, so among
 * gateways sharing a store one collects and the others skip their turn; the engine counts passes and bytes freed
 * ({@code coffer_gc_runs_total}, {@code coffer_gc_freed_bytes_total}, {@code coffer_gc_lease_busy_total}).
 */
public final class GcSchedule implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GcSchedule.class);

    private final Coffer coffer;
    private final Duration interval;
    private final Runnable afterPass;
    private PeriodicJob job;

    /** {@code interval} must be positive (a zero setting means no collection: then {@code serve} makes none). */
    public GcSchedule(Coffer coffer, Duration interval) {
        this(coffer, interval, () -> { });
    }

    /** As above, running {@code afterPass} after each pass this gateway made (the PoR store's consolidation). */
    public GcSchedule(Coffer coffer, Duration interval, Runnable afterPass) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("gc interval must be positive: " + interval);
        }
        this.coffer = coffer;
        this.interval = interval;
        this.afterPass = afterPass;
    }

    /** One pass now; empty when another process holds the lease (this gateway's turn is skipped). */
    public Optional<GcReport> runOnce() {
        try {
            GcReport report = coffer.collectGarbage();
            afterPass.run(); // the blocks the pass freed may let the PoR store shrink
            return Optional.of(report);
        } catch (LeaseHeldException e) {
            LOG.info("gc skipped: {}", e.getMessage());
            return Optional.empty();
        }
    }

    /** Runs {@link #runOnce} every interval, the first one interval from now, on a daemon thread. */
    public GcSchedule start() {
        job = PeriodicJob.start("gc", interval, interval, this::runOnce);
        return this;
    }

    /** Stops the schedule (a pass cut short is safe: each step is, and its lease expires on its own). */
    @Override
    public void close() {
        if (job != null) {
            job.close();
        }
    }
}

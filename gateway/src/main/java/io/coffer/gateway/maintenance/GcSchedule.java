package io.coffer.gateway.maintenance;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final Coffer coffer;
    private final Duration interval;
    private ScheduledExecutorService timer;

    /** {@code interval} must be positive (a zero setting means no collection: then {@code serve} makes none). */
    public GcSchedule(Coffer coffer, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("gc interval must be positive: " + interval);
        }
        this.coffer = coffer;
        this.interval = interval;
    }

    /** One pass now; empty when another process holds the lease (this gateway's turn is skipped). */
    public Optional<GcReport> runOnce() {
        try {
            return Optional.of(coffer.collectGarbage());
        } catch (LeaseHeldException e) {
            LOG.info("gc skipped: {}", e.getMessage());
            return Optional.empty();
        }
    }

    /** Runs {@link #runOnce} every interval, the first one interval from now, on a daemon thread. */
    public GcSchedule start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "coffer-gc");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
            } catch (RuntimeException e) {
                // a backend or metadata store that is down now may be back by the next turn: keep the schedule
                LOG.error("gc did not complete: {}", e.toString());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * Stops the schedule, waiting up to {@link #CLOSE_WAIT} for a pass in progress; a pass cut short is safe (each
     * step is), and its lease expires on its own.
     */
    @Override
    public void close() {
        if (timer == null) {
            return;
        }
        timer.shutdown();
        try {
            if (!timer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("gc still running after {}; closing anyway", CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

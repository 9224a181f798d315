package io.coffer.gateway.maintenance;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job {@code serve} runs in the background (gc, multipart expiry, PoR audits): one daemon thread, each run starting
 * {@code period} after the previous one ended. A failing run is logged and the schedule goes on (a backend or database
 * that is down now may be back by the next run). Closing waits up to {@link #CLOSE_WAIT} for a run in progress and
 * does not interrupt it: each job's steps are safe to cut short, and an interrupt would close the FileChannels that
 * an embedded PoR server's audit reads.
 */
public final class PeriodicJob implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicJob.class);
    static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final String name;
    private final ScheduledExecutorService timer;

    private PeriodicJob(String name, ScheduledExecutorService timer) {
        this.name = name;
        this.timer = timer;
    }

    /** Runs {@code job} on thread {@code coffer-NAME}, {@code first} from now and then every {@code period}. */
    public static PeriodicJob start(String name, Duration first, Duration period, Runnable job) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException(name + " interval must be positive: " + period);
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "coffer-" + name);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                job.run();
            } catch (RuntimeException | Error e) {
                LOG.error("{} did not complete: {}", name, e.toString());
            }
        }, Math.max(0, first.toMillis()), Math.max(1, period.toMillis()), TimeUnit.MILLISECONDS);
        return new PeriodicJob(name, timer);
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("{} still running after {}; closing anyway", name, CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

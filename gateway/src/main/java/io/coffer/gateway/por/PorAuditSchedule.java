package io.coffer.gateway.por;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve}'s scheduled audits: one daemon thread runs an audit every {@code interval}, the first one interval
 * after the start (a restart loop must not turn into an audit loop), each after the previous one ended.
 */
public final class PorAuditSchedule implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PorAuditSchedule.class);

    private final ScheduledExecutorService timer;

    private PorAuditSchedule(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Starts the schedule; {@code interval} must be positive. */
    public static PorAuditSchedule start(PorService service, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("audit interval must be positive: " + interval);
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "coffer-por-audit");
            t.setDaemon(true);
            return t;
        });
        long millis = Math.max(1, interval.toMillis());
        timer.scheduleWithFixedDelay(() -> {
            try {
                service.audit();
            } catch (RuntimeException | Error e) {
                // PorService turns a failing audit into a failed report; this keeps the schedule alive regardless
                LOG.error("scheduled PoR audit did not run: {}", e.toString());
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
        return new PorAuditSchedule(timer);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

package io.coffer.gateway.por;

import io.coffer.gateway.maintenance.PeriodicJob;
import java.time.Duration;

/**
 * {@code serve}'s scheduled audits: one daemon thread runs an audit every {@code interval}, the first one interval
 * after the start (a restart loop must not turn into an audit loop), each after the previous one ended. PorService
 * turns a failing audit into a failed report; {@link PeriodicJob} keeps the schedule alive regardless.
 */
public final class PorAuditSchedule implements AutoCloseable {
    private final PeriodicJob job;

    private PorAuditSchedule(PeriodicJob job) {
        this.job = job;
    }

    /** Starts the schedule; {@code interval} must be positive. */
    public static PorAuditSchedule start(PorService service, Duration interval) {
        // a lambda, not service::audit, which would dereference service before the interval is checked
        return new PorAuditSchedule(PeriodicJob.start("por-audit", interval, interval, () -> service.audit()));
    }

    /** Stops the schedule and waits for an audit in progress, which is not interrupted. */
    @Override
    public void close() {
        job.close();
    }
}

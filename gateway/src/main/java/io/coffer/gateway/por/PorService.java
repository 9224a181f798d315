package io.coffer.gateway.por;

import io.coffer.por.blob.PorAuditReport;
import io.coffer.por.blob.PorConsolidationReport;
import io.coffer.por.blob.PorRepairReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running gateway's PoR operations: every audit and repair (scheduled or asked for on the admin port) goes through
 * here, one at a time, and leaves its metrics and one log line. Metrics: {@code coffer_por_audits_total{result}},
 * {@code coffer_por_last_audit_timestamp_seconds}, {@code coffer_por_last_audit_passed} (NaN until the first audit,
 * so that an alert on 0 does not fire on a fresh start), {@code coffer_por_blocks_used},
 * {@code coffer_por_blocks_capacity}, {@code coffer_por_repaired_blocks_total} (blocks written back by repairs and
 * by reads that found them damaged), {@code coffer_por_shrinks_total} and {@code coffer_por_moved_blocks_total}
 * (consolidations that shrank the store, and the blocks they moved).
 */
public final class PorService {
    private static final Logger LOG = LoggerFactory.getLogger(PorService.class);

    private final PorControl control;
    private final Clock clock;
    private final Counter passed;
    private final Counter failed;
    private final AtomicLong repairedByRepairs = new AtomicLong();
    private final Counter shrinks;
    private final Counter movedBlocks;
    private final AtomicReference<Double> lastAuditSeconds = new AtomicReference<>(Double.NaN);
    private final AtomicReference<Double> lastAuditPassed = new AtomicReference<>(Double.NaN);

    public PorService(PorControl control, MeterRegistry registry, Clock clock) {
        this.control = control;
        this.clock = clock;
        passed = Counter.builder("coffer.por.audits").tag("result", "passed")
                .description("PoR audits by result").register(registry);
        failed = Counter.builder("coffer.por.audits").tag("result", "failed")
                .description("PoR audits by result").register(registry);
        FunctionCounter.builder("coffer.por.repaired.blocks", this,
                        s -> s.repairedByRepairs.get() + s.control.blocksRepairedOnRead())
                .description("blocks of U decoded from C and H and written back by repairs and reads")
                .register(registry);
        shrinks = Counter.builder("coffer.por.shrinks").description("consolidations that shrank the PoR store")
                .register(registry);
        movedBlocks = Counter.builder("coffer.por.moved.blocks")
                .description("blocks of U moved below a smaller capacity by consolidations").register(registry);
        Gauge.builder("coffer.por.last.audit.timestamp.seconds", lastAuditSeconds, AtomicReference::get)
                .description("when the last PoR audit ended (Unix time)").register(registry);
        Gauge.builder("coffer.por.last.audit.passed", lastAuditPassed, AtomicReference::get)
                .description("1 if the last PoR audit passed, 0 if it failed").register(registry);
        Gauge.builder("coffer.por.blocks.used", control, c -> c.blocksUsed())
                .description("blocks of the PoR server's U that hold pack data").register(registry);
        Gauge.builder("coffer.por.blocks.capacity", control, c -> c.capacity())
                .description("the PoR server's capacity in blocks").register(registry);
    }

    /**
     * Runs one audit, records it and logs it. An exception out of the client (a bug, a broken connection) is a failed
     * audit as well: the gateway could not show that the server holds the data.
     */
    public synchronized PorAuditReport audit() {
        long start = System.nanoTime();
        PorAuditReport a;
        try {
            a = control.audit();
        } catch (RuntimeException e) {
            a = new PorAuditReport(false, 0, 0, 0, 0, Duration.ofNanos(System.nanoTime() - start),
                    "the audit did not complete: " + e);
        }
        (a.passed() ? passed : failed).increment();
        lastAuditSeconds.set(clock.millis() / 1000.0);
        lastAuditPassed.set(a.passed() ? 1.0 : 0.0);
        String line = "PoR audit {}: {} levels, {} vectors, {} U blocks ({} bad), {} bytes down, {} bytes up, {} ms{}";
        Object[] args = {a.passed() ? "passed" : "FAILED", a.levelsChecked(), a.vectorsSampled(), a.uBlocksSampled(),
            a.uBlocksBad(), a.bytesDown(), a.bytesUp(), a.took().toMillis(), a.passed() || a.detail() == null ? "" : ": " + a.detail()};
        if (a.passed()) {
            LOG.info(line, args);
        } else {
            LOG.error(line, args);
        }
        return a;
    }

    /** Runs one repair, counts the blocks it restored and logs it. */
    public synchronized PorRepairReport repair() {
        PorRepairReport r = control.repair();
        repairedByRepairs.addAndGet(r.blocksRepaired());
        String line = "PoR repair {}: {} blocks checked, {} damaged, {} repaired, {} unrepairable, {} ms";
        Object[] args = {r.unrepairable().isEmpty() ? "complete" : "INCOMPLETE", r.blocksChecked(), r.blocksDamaged(),
            r.blocksRepaired(), r.unrepairable().size(), r.took().toMillis()};
        if (r.unrepairable().isEmpty()) {
            LOG.info(line, args);
        } else {
            LOG.error(line, args);
        }
        return r;
    }

    /** Runs one consolidation pass (nothing when none is due), counts it and logs a shrink. */
    public synchronized PorConsolidationReport consolidate() {
        PorConsolidationReport r = control.consolidate();
        movedBlocks.increment(r.blocksMoved());
        if (r.shrank()) {
            shrinks.increment();
            LOG.info("PoR consolidation: shrunk from {} to {} blocks, {} in use, {} packs ({} blocks) moved, {} ms",
                    r.capacityBefore(), r.capacityAfter(), r.blocksUsed(), r.packsMoved(), r.blocksMoved(),
                    r.took().toMillis());
        }
        return r;
    }

    /** {@link #consolidate} after a gc pass: a failure is logged, the schedule goes on. */
    public void consolidateAfterGc() {
        try {
            consolidate();
        } catch (RuntimeException e) {
            LOG.error("PoR consolidation after gc failed: {}", e.toString());
        }
    }

    public PorControl control() {
        return control;
    }
}

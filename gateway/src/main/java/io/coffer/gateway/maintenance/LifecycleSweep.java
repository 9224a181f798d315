package io.coffer.gateway.maintenance;

import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.MaintenanceLease;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies buckets' lifecycle rules while the gateway serves: {@code serve} runs a sweep every
 * {@code lifecycle-interval} on one daemon thread, the first one a minute after the start (or one interval, if
 * shorter). A sweep takes the store's
 * {@code lifecycle} lease (among gateways sharing a store one sweeps, the others skip their turn), then walks every
 * bucket that has enabled rules ({@link BucketSweep}), deleting and aborting through the engine's public operations at
 * most {@code lifecycle-rate} times a second. It keeps no cursor: a sweep is idempotent by construction (each decision
 * is made from the store as it is now, each action is a transaction of its own), so one cut short by a crash or a
 * restart is completed by the next, at the cost of listing again what the cut-short one had listed. Meters:
 * {@code coffer_lifecycle_expired_total{kind=current|noncurrent|delete_marker}},
 * {@code coffer_lifecycle_uploads_aborted_total}, {@code coffer_lifecycle_skipped_total},
 * {@code coffer_lifecycle_runs_total}, {@code coffer_lifecycle_lease_busy_total}.
 */
public final class LifecycleSweep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LifecycleSweep.class);
    /** The lease name in the metadata store. */
    public static final String LEASE = "lifecycle";
    static final Duration FIRST_RUN = Duration.ofMinutes(1);

    private final Coffer coffer;
    private final Duration interval;
    private final DeletionPacer pacer;
    private final Clock clock;
    private final Counter current;
    private final Counter noncurrent;
    private final Counter markers;
    private final Counter uploads;
    private final Counter skipped;
    private final Counter runs;
    private final Counter leaseBusy;
    private PeriodicJob job;

    /** {@code interval} must be positive (0 means no sweeps: then {@code serve} makes none). */
    public LifecycleSweep(Coffer coffer, Duration interval, double deletionsPerSecond, MeterRegistry registry,
                          Clock clock) {
        this(coffer, interval, DeletionPacer.of(deletionsPerSecond), registry, clock);
    }

    LifecycleSweep(Coffer coffer, Duration interval, DeletionPacer pacer, MeterRegistry registry, Clock clock) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("lifecycle interval must be positive: " + interval);
        }
        this.coffer = coffer;
        this.interval = interval;
        this.pacer = pacer;
        this.clock = clock;
        String expired = "coffer.lifecycle.expired";
        String what = "versions and delete markers the lifecycle rules removed or expired";
        this.current = Counter.builder(expired).tag("kind", "current").description(what).register(registry);
        this.noncurrent = Counter.builder(expired).tag("kind", "noncurrent").description(what).register(registry);
        this.markers = Counter.builder(expired).tag("kind", "delete_marker").description(what).register(registry);
        this.uploads = Counter.builder("coffer.lifecycle.uploads.aborted")
                .description("incomplete multipart uploads a lifecycle rule aborted").register(registry);
        this.skipped = Counter.builder("coffer.lifecycle.skipped")
                .description("lifecycle actions not taken: refused by the engine (Object Lock) or the object changed")
                .register(registry);
        this.runs = Counter.builder("coffer.lifecycle.runs").description("lifecycle sweeps completed")
                .register(registry);
        this.leaseBusy = Counter.builder("coffer.lifecycle.lease.busy")
                .description("lifecycle sweeps skipped because another gateway held the lease").register(registry);
    }

    /** One sweep now; empty when another process holds the lease (this gateway's turn is skipped). */
    public Optional<LifecycleReport> runOnce() {
        MaintenanceLease lease;
        try {
            lease = coffer.takeMaintenanceLease(LEASE);
        } catch (LeaseHeldException e) {
            leaseBusy.increment();
            LOG.info("lifecycle sweep skipped: {}", e.getMessage());
            return Optional.empty();
        }
        try (lease) {
            LifecycleReport report = sweep(coffer, clock.instant(), LifecycleActions.engine(coffer, pacer), lease);
            current.increment(report.currentExpired());
            noncurrent.increment(report.noncurrentRemoved());
            markers.increment(report.deleteMarkersRemoved());
            uploads.increment(report.uploadsAborted());
            skipped.increment(report.skipped());
            runs.increment();
            LOG.info("lifecycle: {} bucket(s) swept, {} current version(s) expired, {} noncurrent removed, {} delete"
                    + " marker(s) removed, {} upload(s) aborted, {} skipped", report.buckets(),
                    report.currentExpired(), report.noncurrentRemoved(), report.deleteMarkersRemoved(),
                    report.uploadsAborted(), report.skipped());
            return Optional.of(report);
        }
    }

    /** What a sweep at {@code now} would do, doing nothing (no lease taken: it changes nothing). */
    public static LifecycleReport plan(Coffer coffer, Instant now) {
        return sweep(coffer, now, LifecycleActions.DRY_RUN, null);
    }

    private static LifecycleReport sweep(Coffer coffer, Instant now, LifecycleActions actions,
                                         MaintenanceLease lease) {
        long buckets = 0;
        long cur = 0;
        long nonc = 0;
        long mark = 0;
        long up = 0;
        long skip = 0;
        for (Bucket bucket : coffer.listBuckets()) {
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
            LifecycleConfiguration config;
            try {
                Optional<byte[]> doc = coffer.bucketConfig(bucket, LifecycleConfiguration.BUCKET_CONFIG);
                if (doc.isEmpty()) {
                    continue;
                }
                config = LifecycleConfiguration.parse(doc.get());
            } catch (S3Exception e) {
                LOG.warn("lifecycle: the stored rules of bucket {} do not parse ({}); bucket skipped",
                        bucket.name(), e.getMessage());
                continue;
            } catch (CofferException e) {
                continue; // deleted since it was listed
            }
            if (!config.hasEnabledRules()) {
                continue;
            }
            LifecycleReport r;
            try {
                r = new BucketSweep(coffer, bucket, config, now, actions, lease).run();
            } catch (LeaseHeldException e) {
                throw e;
            } catch (CofferException e) {
                LOG.warn("lifecycle: sweep of bucket {} stopped: {} ({})", bucket.name(), e.code(), e.getMessage());
                continue;
            }
            buckets += r.buckets();
            cur += r.currentExpired();
            nonc += r.noncurrentRemoved();
            mark += r.deleteMarkersRemoved();
            up += r.uploadsAborted();
            skip += r.skipped();
        }
        return new LifecycleReport(buckets, cur, nonc, mark, up, skip);
    }

    /**
     * Runs {@link #runOnce} {@link #FIRST_RUN} from now (or one interval, if that is shorter) and then every interval,
     * on a daemon thread.
     */
    public LifecycleSweep start() {
        Duration first = interval.compareTo(FIRST_RUN) < 0 ? interval : FIRST_RUN;
        job = PeriodicJob.start("lifecycle", first, interval, () -> {
            try {
                runOnce();
            } catch (LeaseHeldException e) {
                LOG.info("lifecycle sweep stopped: {}", e.getMessage());
            }
        });
        return this;
    }

    /** Stops the schedule (a sweep cut short is safe: each action is one transaction, and the next sweep redoes). */
    @Override
    public void close() {
        if (job != null) {
            job.close();
        }
    }
}

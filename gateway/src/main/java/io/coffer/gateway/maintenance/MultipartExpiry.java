package io.coffer.gateway.maintenance;

import io.coffer.sdk.Coffer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts multipart uploads that were initiated longer than {@code expiry} ago (S3's AbortIncompleteMultipartUpload
 * lifecycle rule, for every bucket): their parts' chunks become garbage for the next collection. {@code serve} runs
 * it on one daemon thread, a minute after the start and then every hour; each run counts what it aborted in
 * {@code coffer_multipart_uploads_expired_total}.
 */
public final class MultipartExpiry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MultipartExpiry.class);

    static final Duration FIRST_RUN = Duration.ofMinutes(1);
    static final Duration PERIOD = Duration.ofHours(1);
    /** Uploads aborted per engine call: a run makes calls until one aborts fewer. */
    static final int BATCH = 1000;
    static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final Coffer coffer;
    private final Duration expiry;
    private final Clock clock;
    private final Counter expired;
    private ScheduledExecutorService timer;

    /** {@code expiry} must be positive (a zero setting means no expiry: then {@code serve} makes none). */
    public MultipartExpiry(Coffer coffer, Duration expiry, MeterRegistry registry, Clock clock) {
        if (expiry.isNegative() || expiry.isZero()) {
            throw new IllegalArgumentException("multipart expiry must be positive: " + expiry);
        }
        this.coffer = coffer;
        this.expiry = expiry;
        this.clock = clock;
        this.expired = Counter.builder("coffer.multipart.uploads.expired")
                .description("multipart uploads aborted because they were older than multipart-expiry")
                .register(registry);
    }

    /** Aborts every upload initiated more than {@code expiry} ago; returns how many. */
    public long runOnce() {
        Instant cutoff = clock.instant().minus(expiry);
        long total = 0;
        int n;
        do {
            n = coffer.expireMultipartUploads(cutoff, BATCH);
            total += n;
            expired.increment(n);
        } while (n == BATCH);
        if (total > 0) {
            LOG.info("multipart expiry: aborted {} upload(s) initiated before {} (multipart-expiry {})", total,
                    cutoff, expiry);
        }
        return total;
    }

    /** Runs {@link #runOnce} {@link #FIRST_RUN} from now and then every {@link #PERIOD}, on a daemon thread. */
    public MultipartExpiry start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "coffer-multipart-expiry");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
            } catch (RuntimeException e) {
                // a metadata store that is down now may be back by the next run: keep the schedule alive
                LOG.error("multipart expiry did not run: {}", e.toString());
            }
        }, FIRST_RUN.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** Stops the schedule, waiting up to {@link #CLOSE_WAIT} for a run in progress (each abort is one transaction). */
    @Override
    public void close() {
        if (timer == null) {
            return;
        }
        timer.shutdown();
        try {
            if (!timer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("multipart expiry still running after {}; closing anyway", CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

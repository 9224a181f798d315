package io.coffer.gateway.maintenance;

import io.coffer.sdk.Coffer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

    private final Coffer coffer;
    private final Duration expiry;
    private final Clock clock;
    private final Counter expired;
    private PeriodicJob job;

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
        job = PeriodicJob.start("multipart-expiry", FIRST_RUN, PERIOD, this::runOnce);
        return this;
    }

    /** Stops the schedule, waiting for a run in progress (each abort is one transaction). */
    @Override
    public void close() {
        if (job != null) {
            job.close();
        }
    }
}

package io.coffer.gateway.http;

import io.coffer.sdk.BucketStats;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.UsageStats;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage statistics of {@code coffer stats} as gauges per bucket ({@code coffer_bucket_..._bytes{bucket,owner}})
 * and for the whole store ({@code coffer_store_...}). They are computed on a timer, not per scrape: the statistics
 * aggregate the whole metadata store. A bucket that is gone disappears from the gauges at the next refresh.
 */
public final class StorageMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StorageMetrics.class);

    /** The measures exported, each with its meter name (without the {@code coffer.bucket.} prefix). */
    private static final Map<String, ToLongFunction<UsageStats>> MEASURES = new LinkedHashMap<>();

    static {
        MEASURES.put("objects", UsageStats::objects);
        MEASURES.put("logical.bytes", UsageStats::logicalBytes);
        MEASURES.put("inline.bytes", UsageStats::inlineBytes);
        MEASURES.put("chunks", UsageStats::chunks);
        MEASURES.put("referenced.bytes", UsageStats::referencedBytes);
        MEASURES.put("stored.bytes", UsageStats::storedBytes);
    }

    private final Supplier<StorageStats> source;
    private final Map<String, MultiGauge> perBucket = new LinkedHashMap<>();
    private final Map<String, MultiGauge> store = new LinkedHashMap<>();
    private ScheduledExecutorService timer;

    public StorageMetrics(MeterRegistry registry, Supplier<StorageStats> source) {
        this.source = source;
        MEASURES.keySet().forEach(m -> {
            perBucket.put(m, MultiGauge.builder("coffer.bucket." + m)
                    .description("per bucket, as coffer stats reports it: " + m).register(registry));
            store.put(m, MultiGauge.builder("coffer.store." + m)
                    .description("whole store, shared chunks counted once: " + m).register(registry));
        });
    }

    /** Recomputes the statistics and replaces every gauge's rows. */
    public synchronized void refresh() {
        StorageStats stats = source.get();
        MEASURES.forEach((m, value) -> {
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            for (BucketStats b : stats.buckets()) {
                rows.add(MultiGauge.Row.of(Tags.of("bucket", b.bucket(), "owner", b.owner()),
                        value.applyAsLong(b.usage())));
            }
            perBucket.get(m).register(rows, true);
            store.get(m).register(List.of(MultiGauge.Row.of(Tags.empty(), value.applyAsLong(stats.store()))), true);
        });
    }

    /**
     * Refreshes at once and then every {@code period} on a daemon thread (not on the caller's: a large store's first
     * statistics must not hold up the gateway's start); a failed refresh is logged and the gauges keep their values.
     */
    public StorageMetrics start(Duration period) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "coffer-storage-metrics");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                refresh();
            } catch (RuntimeException e) {
                LOG.warn("storage statistics not refreshed: {}", e.toString());
            }
        }, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}

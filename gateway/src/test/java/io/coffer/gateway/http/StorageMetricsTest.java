package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.BucketStats;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.UsageStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class StorageMetricsTest {
    private static final UsageStats DOCS = new UsageStats(2, 600, 0, 0, 16, 1, 300, 100, 0);
    private static final UsageStats LOGS = new UsageStats(1, 50, 1, 50, 70, 0, 0, 0, 0);

    @Test
    void gaugesFollowTheStatisticsPerBucketAndDropABucketThatIsGone() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicReference<StorageStats> stats = new AtomicReference<>(new StorageStats(
                List.of(new BucketStats("docs", "alice", DOCS), new BucketStats("logs", "bob", LOGS)),
                Map.of("alice", DOCS, "bob", LOGS), new UsageStats(3, 650, 1, 50, 86, 1, 300, 100, 0), 1, 140));
        StorageMetrics metrics = new StorageMetrics(registry, stats::get);
        metrics.refresh();

        assertThat(registry.get("coffer.bucket.logical.bytes").tags("bucket", "docs", "owner", "alice").gauge()
                .value()).isEqualTo(600);
        assertThat(registry.get("coffer.bucket.stored.bytes").tags("bucket", "docs").gauge().value()).isEqualTo(100);
        assertThat(registry.get("coffer.bucket.inline.bytes").tags("bucket", "logs", "owner", "bob").gauge()
                .value()).isEqualTo(50);
        assertThat(registry.get("coffer.store.referenced.bytes").gauge().value()).isEqualTo(300);

        stats.set(new StorageStats(List.of(new BucketStats("docs", "alice", LOGS)), Map.of("alice", LOGS), LOGS, 0,
                0));
        metrics.refresh();
        assertThat(registry.find("coffer.bucket.objects").tags("bucket", "logs").gauge()).isNull();
        assertThat(registry.get("coffer.bucket.objects").tags("bucket", "docs").gauge().value()).isEqualTo(1);
        assertThat(registry.get("coffer.store.objects").gauge().value()).isEqualTo(1);
    }

    @Test
    void prometheusRendersTheGaugesWithBucketAndOwnerLabels() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new StorageMetrics(registry, () -> new StorageStats(List.of(new BucketStats("docs", "alice", DOCS)),
                Map.of("alice", DOCS), DOCS, 1, 140)).refresh();
        assertThat(registry.scrape()).contains("coffer_bucket_stored_bytes{bucket=\"docs\",owner=\"alice\"} 100.0")
                .contains("coffer_bucket_objects{bucket=\"docs\",owner=\"alice\"} 2.0")
                .contains("coffer_store_logical_bytes 600.0");
    }
}

package io.coffer.gateway.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scheduled garbage collection in {@code serve}: a pass per interval, skipped while another gateway holds the lease,
 * and what runs after a pass (the PoR store's consolidation) only after one this gateway made.
 */
class GcScheduleTest {
    @TempDir
    Path dir;

    @Test
    void aTurnCollectsUnlessAnotherGatewayHoldsTheLease() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"));
        try (Coffer coffer = engine(meta, meters)) {
            coffer.createBucket("bkt", "t");
            coffer.putObject(PutObjectRequest.of("bkt", "k", 50_000), new ByteArrayInputStream(new byte[50_000]));
            coffer.deleteObject("bkt", "k");
            int[] afterPasses = {0}; // the PoR store's consolidation runs after each pass this gateway made
            GcSchedule schedule = new GcSchedule(coffer, Duration.ofHours(1), () -> afterPasses[0]++);
            Instant now = Instant.now();
            meta.acquireLease("gc", "gateway-b", now, now.plusSeconds(60));

            assertThat(schedule.runOnce()).isEmpty();
            assertThat(meters.counter("coffer.gc.lease.busy").count()).isEqualTo(1.0);
            assertThat(afterPasses[0]).isZero();

            meta.releaseLease("gc", "gateway-b");
            Thread.sleep(5);
            Optional<GcReport> turn = schedule.runOnce();
            assertThat(turn).hasValueSatisfying(r -> assertThat(r.packsRetired()).isEqualTo(1));
            assertThat(afterPasses[0]).isEqualTo(1);
        }
    }

    @Test
    void startedItCollectsEveryIntervalUntilClosed() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (Coffer coffer = engine(JdbcMetadataStore.sqlite(dir.resolve("meta.db")), meters)) {
            try (GcSchedule schedule = new GcSchedule(coffer, Duration.ofMillis(100)).start()) {
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (meters.counter("coffer.gc.runs").count() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
            }
            double runs = meters.counter("coffer.gc.runs").count();
            assertThat(runs).isGreaterThanOrEqualTo(2.0);
            Thread.sleep(300);
            assertThat(meters.counter("coffer.gc.runs").count()).isEqualTo(runs);
        }
    }

    @Test
    void anIntervalMustBePositive() throws Exception {
        try (Coffer coffer = engine(JdbcMetadataStore.sqlite(dir.resolve("meta.db")), new SimpleMeterRegistry())) {
            assertThatThrownBy(() -> new GcSchedule(coffer, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private Coffer engine(JdbcMetadataStore meta, SimpleMeterRegistry meters) throws Exception {
        return Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs"))).metadataStore(meta)
                .masterKey(MasterKey.random()).gcGrace(Duration.ZERO).meterRegistry(meters).build();
    }
}

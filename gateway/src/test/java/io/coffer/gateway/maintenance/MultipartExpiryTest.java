package io.coffer.gateway.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve}'s expiry run: uploads older than the setting are aborted and counted; younger ones stay. */
class MultipartExpiryTest {
    @TempDir
    Path dir;

    @Test
    void aRunAbortsUploadsOlderThanTheExpiryAndCountsThem() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Coffer coffer = Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db")))
                .masterKey(MasterKey.loadOrCreate(dir.resolve("master.key"))).build()) {
            coffer.createBucket("bkt", "t");
            String id = coffer.createMultipartUpload("bkt", "abandoned");
            coffer.uploadPart("bkt", "abandoned", id, 1, 3, new ByteArrayInputStream(new byte[] {1, 2, 3}));
            Duration expiry = Duration.ofDays(7);

            // six days on the upload is still young
            Clock sixDaysOn = Clock.offset(Clock.systemUTC(), Duration.ofDays(6));
            assertThat(new MultipartExpiry(coffer, expiry, registry, sixDaysOn).runOnce()).isZero();
            assertThat(coffer.listMultipartUploads("bkt", null, null, 10).uploads()).hasSize(1);

            Clock eightDaysOn = Clock.offset(Clock.systemUTC(), Duration.ofDays(8));
            assertThat(new MultipartExpiry(coffer, expiry, registry, eightDaysOn).runOnce()).isEqualTo(1);
            assertThat(coffer.listMultipartUploads("bkt", null, null, 10).uploads()).isEmpty();
            assertThat(registry.scrape()).contains("coffer_multipart_uploads_expired_total 1.0");
        }
    }

    @Test
    void aZeroOrNegativeExpiryIsRefused() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        assertThatThrownBy(() -> new MultipartExpiry(null, Duration.ZERO, registry, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartExpiry(null, Duration.ofDays(-1), registry, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package io.coffer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.blob.FaultyBlobStore;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the builder decorates the backend: every store's calls measured, a caller's store not retried on top. */
class CofferBuilderBlobStoreTest {

    private static final String DURATION = "coffer.blob.request.duration";

    @TempDir
    Path dir;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void theDefaultDirectoryBackendIsMeasured() {
        try (Coffer coffer = Coffer.builder().directory(dir).meterRegistry(registry).build()) {
            coffer.createBucket("bkt", "me");
        }

        assertThat(registry.get(DURATION).tag("operation", "put").tag("outcome", "success").timer().count())
                .isEqualTo(1);
        assertThat(registry.get("coffer.blob.written").counter().count()).isPositive();
    }

    @Test
    void aGivenStoreIsMeasuredAndItsFailureSurfacesAfterOneTry() throws IOException {
        FaultyBlobStore faulty = new FaultyBlobStore(new MemoryBlobStore());
        int atOpen;
        try (Coffer coffer = Coffer.builder().blobStore(faulty).meterRegistry(registry)
                .masterKey(MasterKey.loadOrCreate(dir.resolve("master.key")))
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))).build()) {
            // opening reads and writes the key check; the fault is armed for what follows
            atOpen = faulty.calls();
            faulty.failNextPuts(1);
            assertThatThrownBy(() -> coffer.createBucket("bkt", "me")).isInstanceOf(CofferException.class);
        }

        assertThat(faulty.calls() - atOpen).isEqualTo(1);
        assertThat(registry.get(DURATION).tag("operation", "put").tag("outcome", "error").timer().count())
                .isEqualTo(1);
    }
}

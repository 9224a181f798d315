package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract over {@link MeteredBlobStore} on a directory, and the meters its calls leave behind. */
class MeteredBlobStoreTest extends BlobStoreContractTest {

    @TempDir
    Path dir;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Override
    protected BlobStore createStore() throws IOException {
        return new MeteredBlobStore(new DirectoryBlobStore(dir.resolve("blobs")), registry);
    }

    @Test
    void eachCallIsTimedByOperationAndOutcome() throws IOException {
        store.put("p/a", BlobContent.of(new byte[1000]));
        try (InputStream in = store.get("p/a", 0, -1)) {
            in.readAllBytes();
        }
        store.read("p/a", 10, 10);
        store.head("p/a");
        store.head("p/missing");
        store.list("p/").toList();
        store.delete("p/a");
        assertThatThrownBy(() -> store.get("p/a", 0, -1)).isInstanceOf(BlobNotFoundException.class);

        assertThat(calls("put", "success")).isEqualTo(1);
        assertThat(calls("get", "success")).isEqualTo(1);
        assertThat(calls("read", "success")).isEqualTo(1);
        assertThat(calls("head", "success")).isEqualTo(2);
        assertThat(calls("list", "success")).isEqualTo(1);
        assertThat(calls("delete", "success")).isEqualTo(1);
        assertThat(calls("get", "not_found")).isEqualTo(1);
        assertThat(calls("get", "error")).isZero();
        assertThat(registry.find(MeteredBlobStore.DURATION).timers()).hasSize(7);
    }

    @Test
    void bytesWrittenAndReadAreCounted() throws IOException {
        store.put("p/a", BlobContent.of(new byte[1000]));
        store.put("p/b", BlobContent.of(new byte[24]));
        try (InputStream in = store.get("p/a", 100, 500)) {
            in.readAllBytes();
        }
        store.read("p/b", 0, 24);

        assertThat(registry.get(MeteredBlobStore.BYTES_WRITTEN).counter().count()).isEqualTo(1024);
        assertThat(registry.get(MeteredBlobStore.BYTES_READ).counter().count()).isEqualTo(524);
    }

    @Test
    void failuresAreTimedAsErrorsAndStoreNoBytes() {
        FaultyBlobStore faulty = new FaultyBlobStore(new MemoryBlobStore("test")).failNextPuts(1);
        BlobStore metered = new MeteredBlobStore(faulty, registry);

        assertThatThrownBy(() -> metered.put("p/a", BlobContent.of(new byte[10]))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> metered.put("../a", BlobContent.of(new byte[10])))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(calls("put", "error")).isEqualTo(2);
        assertThat(calls("put", "success")).isZero();
        assertThat(registry.get(MeteredBlobStore.BYTES_WRITTEN).counter().count()).isZero();
        assertThat(metered.describe()).isEqualTo("faulty(memory:test)");
    }

    @Test
    void aReadItsCallerStopsIsTheStoresSuccessOfTheBytesThatArrived() throws IOException {
        store.put("p/a", BlobContent.of(new byte[3 << 20]));

        assertThatThrownBy(() -> store.readInto("p/a", 0, new byte[3 << 20], 0, 3 << 20, n -> {
            throw new IOException("the reader has gone after " + n + " bytes");
        })).isInstanceOf(IOException.class).hasMessageContaining("the reader has gone");

        assertThat(calls("read", "success")).isEqualTo(1);
        assertThat(calls("read", "error")).isZero();
        assertThat(registry.get(MeteredBlobStore.BYTES_READ).counter().count()).isPositive().isLessThan(3 << 20);
    }

    private long calls(String operation, String outcome) {
        Timer timer = registry.find(MeteredBlobStore.DURATION).tag("operation", operation).tag("outcome", outcome)
                .timer();
        return timer == null ? 0 : timer.count();
    }
}

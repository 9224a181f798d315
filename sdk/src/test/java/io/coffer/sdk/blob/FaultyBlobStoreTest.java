package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Checks that {@link FaultyBlobStore} injects exactly the faults it is armed with, then passes calls through, and that
 * with none armed it passes the contract.
 */
class FaultyBlobStoreTest extends BlobStoreContractTest {

    private final MemoryBlobStore memory = new MemoryBlobStore();
    private final FaultyBlobStore faulty = new FaultyBlobStore(memory);

    @Override
    protected BlobStore createStore() {
        return new FaultyBlobStore(new MemoryBlobStore("test"));
    }

    @Test
    void failsTheNextPutsThenRecovers() throws IOException {
        faulty.failNextPuts(2);

        assertThatThrownBy(() -> faulty.put("p/a", BlobContent.of(new byte[] {1}))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> faulty.put("p/a", BlobContent.of(new byte[] {1}))).isInstanceOf(IOException.class);
        assertThat(memory.head("p/a")).isEmpty();
        faulty.put("p/a", BlobContent.of(new byte[] {1}));
        assertThat(memory.head("p/a")).isPresent();
        assertThat(faulty.calls()).isEqualTo(3);
    }

    @Test
    void putCanStoreAndStillFail() throws IOException {
        faulty.failNextPutsAfterWrite(1);

        assertThatThrownBy(() -> faulty.put("p/a", BlobContent.of(new byte[] {1}))).isInstanceOf(IOException.class);
        assertThat(memory.read("p/a", 0, 1)).containsExactly(1);
    }

    @Test
    void failsGetsAndOtherOperations() throws IOException {
        memory.put("p/a", BlobContent.of(new byte[] {1}));
        faulty.failNextGets(1).failNext(FaultyBlobStore.Operation.HEAD, 1)
                .failNext(FaultyBlobStore.Operation.LIST, 1).failNext(FaultyBlobStore.Operation.DELETE, 1);

        assertThatThrownBy(() -> faulty.read("p/a", 0, 1)).isInstanceOf(IOException.class)
                .isNotInstanceOf(BlobNotFoundException.class);
        assertThatThrownBy(() -> faulty.head("p/a")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> faulty.list("p/")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> faulty.delete("p/a")).isInstanceOf(IOException.class);
        assertThat(faulty.read("p/a", 0, 1)).containsExactly(1);
        assertThat(faulty.head("p/a")).isPresent();
        assertThat(faulty.list("p/").toList()).hasSize(1);
    }

    @Test
    void corruptsAndTruncatesReads() throws IOException {
        memory.put("p/a", BlobContent.of(new byte[] {1, 2, 3, 4}));
        faulty.corruptNextGets(1).truncateNextGets(1);

        assertThat(faulty.get("p/a", 0, -1).readAllBytes()).containsExactly(~1, 2);
        assertThat(faulty.get("p/a", 0, -1).readAllBytes()).containsExactly(1, 2, 3, 4);
        faulty.corruptNextGets(5).reset();
        assertThat(faulty.get("p/a", 1, 2).readAllBytes()).containsExactly(2, 3);
        assertThat(faulty.describe()).isEqualTo("faulty(memory:default)");
    }
}

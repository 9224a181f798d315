package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** The contract test against {@link MemoryBlobStore}, plus its copy semantics. */
class MemoryBlobStoreTest extends BlobStoreContractTest {

    @Override
    protected BlobStore createStore() {
        return new MemoryBlobStore("test");
    }

    @Test
    void bytesAreCopiedInAndOut() throws IOException {
        byte[] data = {1, 2, 3};
        store.put("p/copy", BlobContent.of(data));
        data[0] = 9;
        try (InputStream in = store.get("p/copy", 0, -1)) {
            byte[] out = in.readAllBytes();
            out[1] = 9;
        }

        assertThat(readAll("p/copy")).containsExactly(1, 2, 3);
        assertThat(((MemoryBlobStore) store).size()).isEqualTo(1);
        assertThat(store.describe()).isEqualTo("memory:test");
    }
}

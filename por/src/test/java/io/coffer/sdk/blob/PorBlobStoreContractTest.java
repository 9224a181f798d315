package io.coffer.sdk.blob;

import io.coffer.por.blob.PorBlobStore;
import io.coffer.por.blob.PorStoreFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/**
 * The sdk's {@link BlobStore} contract against {@link PorBlobStore} (packs, the contract's "p/" names, in PoR blocks;
 * the rest in a memory store). In the sdk's package because the contract test is package-private there.
 */
class PorBlobStoreContractTest extends BlobStoreContractTest {
    private PorStoreFixture fixture;
    private Path dir;

    @Override
    protected BlobStore createStore() throws Exception {
        dir = Files.createTempDirectory("por-contract");
        // 2^11 blocks of 16 KiB: 32 MiB, room for the contract's 20 MiB blob; batches of 4 blocks
        fixture = PorStoreFixture.open(dir, 11, 2, 16 << 10);
        return fixture.store;
    }

    @AfterEach
    void closeFixture() throws IOException {
        fixture.metadata.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}

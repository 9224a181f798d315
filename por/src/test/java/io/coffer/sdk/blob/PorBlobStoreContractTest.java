package io.coffer.sdk.blob;

import io.coffer.por.blob.PorBlobStore;
import io.coffer.por.blob.PorStoreFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
        // 2^8 blocks of 16 KiB (4 MiB), batches of 4 blocks: every test but the 20 MiB one fits
        fixture = PorStoreFixture.open(dir, 8, 2, 16 << 10);
        return fixture.store;
    }

    /** The same test on a store of 2^11 blocks of 16 KiB (32 MiB), which its 20 MiB blob needs. */
    @Override
    @Test
    void roundTripOfTwentyMebibytesStreamed() throws IOException {
        store.close();
        fixture.metadata.close();
        fixture = PorStoreFixture.open(Files.createDirectories(dir.resolve("big")), 11, 2, 16 << 10);
        store = fixture.store;
        super.roundTripOfTwentyMebibytesStreamed();
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

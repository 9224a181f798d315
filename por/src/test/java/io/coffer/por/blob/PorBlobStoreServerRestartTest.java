package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.blob.BlobContent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A remote PoR server killed in the middle of a pack's block writes, after it applied a write whose answer was lost,
 * and restarted while the gateway's store stays open ({@link KilledServer}): the put fails, and the next put
 * resynchronises the store with the server (the writing marker left by the failed one says writes may have gone
 * ahead of the client state) instead of failing every put until the gateway restarts.
 */
class PorBlobStoreServerRestartTest {
    private static final int BLOCK = 4096;

    @TempDir
    Path dir;

    private PorStoreFixture f;
    private final Map<String, byte[]> packs = new LinkedHashMap<>();

    @AfterEach
    void close() throws IOException {
        if (f != null) {
            f.close();
        }
    }

    private void put(PorBlobStore store, String name, int length, long seed) throws IOException {
        byte[] content = new byte[length];
        new Random(seed).nextBytes(content);
        store.put(name, BlobContent.of(content));
        packs.put(name, content);
    }

    /** b = 0: the lost write moved the server's log state; b = 2: inside a batch, U changed but not the log state. */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aPutAfterAWriteWhoseAnswerWasLostResynchronisesAndEveryPackReadsBack(int batchExponent) throws IOException {
        f = PorStoreFixture.open(dir, 6, batchExponent, BLOCK);
        put(f.store, "p/a", 5 * BLOCK, 1);
        KilledServer killed = new KilledServer(f.server, "write");
        PorBlobStore store = f.reopen(killed.proxy());

        assertThatThrownBy(() -> put(store, "p/b", 6 * BLOCK, 2)).isInstanceOf(IOException.class)
                .hasMessageContaining("the connection was lost");
        assertThat(killed.killed()).isTrue();
        killed.restart();

        put(store, "p/b", 6 * BLOCK, 2); // as the S3 client retries
        put(store, "p/c", 3 * BLOCK, 3);
        for (Map.Entry<String, byte[]> e : packs.entrySet()) {
            assertThat(store.read(e.getKey(), 0, e.getValue().length)).as(e.getKey()).isEqualTo(e.getValue());
        }
        PorAuditReport audit = store.audit();
        assertThat(audit.passed()).as(audit.detail()).isTrue();
    }
}

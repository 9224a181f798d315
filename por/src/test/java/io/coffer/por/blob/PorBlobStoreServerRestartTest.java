package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A remote PoR server killed after it applied a write or a grow whose answer was lost, and restarted while the
 * gateway's store stays open ({@link KilledServer}): the put it cut fails, and the next read or put resynchronises
 * the store with the server first (a change failed part-way: writes may have gone ahead of the client state) instead
 * of failing too, or, for a write, every read and put until the gateway restarts.
 */
class PorBlobStoreServerRestartTest {
    private static final int BLOCK = 4096;

    @TempDir
    Path dir;

    /** b = 0: the lost write moved the server's log state; b = 2: inside a batch, U changed but not the log state. */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aReadOrPutAfterAWriteWhoseAnswerWasLostResynchronisesAndEveryPackReadsBack(int batchExponent) throws IOException {
        try (PorStoreFixture f = PorStoreFixture.open(dir, 6, batchExponent, BLOCK)) {
            f.put(f.store, "p/a", 5 * BLOCK, 1);
            KilledServer killed = new KilledServer(f.server, "write");
            PorBlobStore store = f.reopen(killed.proxy());

            assertThatThrownBy(() -> f.put(store, "p/b", 6 * BLOCK, 2)).isInstanceOf(IOException.class)
                    .hasMessageContaining("the connection was lost");
            assertThat(killed.killed()).isTrue();
            killed.restart();

            assertThat(store.read("p/a", 0, 5 * BLOCK)).isEqualTo(f.packs.get("p/a")); // a read first: resynchronised
            f.put(store, "p/b", 6 * BLOCK, 2); // as the S3 client retries
            f.put(store, "p/c", 3 * BLOCK, 3);
            f.assertEveryPackReadsBack(store);
        }
    }

    @Test
    void aPutAfterAGrowWhoseAnswerWasLostFollowsTheServersGrowInsteadOfFailingToo() throws IOException {
        try (PorStoreFixture f = PorStoreFixture.open(dir, 4, 1, BLOCK)) {
            f.put(f.store, "p/a", 6 * BLOCK, 1);
            KilledServer killed = new KilledServer(f.server, "resize"); // the server dies after it grew
            PorBlobStore store = f.reopen(killed.proxy());

            assertThatThrownBy(() -> f.put(store, "p/b", 12 * BLOCK, 2)).isInstanceOf(IOException.class)
                    .hasMessageContaining("the connection was lost");
            assertThat(f.server.k()).isEqualTo(5);
            killed.restart();

            f.put(store, "p/b", 12 * BLOCK, 2); // the client retries: the store follows the server to 32 blocks
            assertThat(store.capacity()).isEqualTo(32);
            assertThat(ClientState.fromBytes(f.metadata.blockMap().state().orElseThrow()).k()).isEqualTo(5);
            f.put(store, "p/c", 12 * BLOCK, 3); // grows again, answered this time
            assertThat(store.capacity()).isEqualTo(64);
            f.assertEveryPackReadsBack(store);
        }
    }
}

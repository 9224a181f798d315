package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.manifest.ManifestEntry;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The edge chunks of ranged GETs: announced by the GET that fetches them, handed to one claimant (waiting if the fetch
 * has not finished), only for the same chunk id and key, within their count and byte limits; every byte kept is held
 * in the read budget until the chunk is dropped or its claimant closes the share it got.
 */
class BoundaryChunksTest {
    private static final long BUDGET = 64 << 10;
    private final BufferBudget budget = new BufferBudget(BUDGET, Duration.ofMillis(100));

    @Test
    void aFinishedChunkIsHandedOutOnceWithItsBytesAndItsShareOfTheReadBudget() {
        BoundaryChunks edges = new BoundaryChunks(budget, 4, BUDGET / 2);
        ManifestEntry chunk = chunk(1, 3000);
        byte[] run = new byte[5000];
        Arrays.fill(run, 100, 3100, (byte) 7);
        edges.finish(edges.produce(chunk), run, 100, 3000);
        assertThat(edges.keptBytes()).isEqualTo(3072);
        assertThat(budget.availableKib()).isEqualTo(64 - 3);

        BoundaryChunks.Kept got = edges.claim(chunk).join();
        assertThat(got.plain()).hasSize(3000).containsOnly((byte) 7);
        assertThat(edges.claim(chunk)).isNull();
        assertThat(edges.keptBytes()).isZero();
        assertThat(budget.availableKib()).isEqualTo(64 - 3); // the claimant holds it now
        got.share().close();
        assertThat(budget.availableKib()).isEqualTo(64);
    }

    @Test
    void aClaimBeforeTheFetchFinishesGetsTheChunkWhenItDoesAndAFailedFetchGivesNull() {
        BoundaryChunks edges = new BoundaryChunks(budget, 4, BUDGET / 2);
        ManifestEntry chunk = chunk(1, 2048);
        BoundaryChunks.Slot slot = edges.produce(chunk);
        assertThat(edges.produce(chunk)).isNull(); // one GET fetches it
        CompletableFuture<BoundaryChunks.Kept> claimed = edges.claim(chunk);
        assertThat(claimed).isNotDone();
        edges.finish(slot, new byte[2048], 0, 2048);
        assertThat(claimed.join().plain()).hasSize(2048);
        assertThat(edges.keptBytes()).isZero(); // the claimant's, not kept here
        claimed.join().share().close();
        edges.finish(slot, null, 0, 0); // a second finish changes nothing
        assertThat(budget.availableKib()).isEqualTo(64);

        ManifestEntry other = chunk(2, 2048);
        BoundaryChunks.Slot failing = edges.produce(other);
        CompletableFuture<BoundaryChunks.Kept> waiting = edges.claim(other);
        edges.finish(failing, null, 0, 0);
        assertThat(waiting.join()).isNull();
        assertThat(edges.has(other)).isFalse();
    }

    @Test
    void aChunkIsNotHandedOutForAnotherKeyOrLength() {
        BoundaryChunks edges = new BoundaryChunks(budget, 4, BUDGET / 2);
        ManifestEntry chunk = chunk(1, 3000);
        edges.finish(edges.produce(chunk), new byte[3000], 0, 3000);
        ManifestEntry otherKey = new ManifestEntry(chunk.id(), ChunkKey.random(), chunk.hash(), 3000);
        ManifestEntry otherLength = new ManifestEntry(chunk.id(), chunk.key(), chunk.hash(), 2999);
        assertThat(edges.has(otherKey)).isFalse();
        assertThat(edges.claim(otherKey)).isNull();
        assertThat(edges.claim(otherLength)).isNull();
        assertThat(edges.has(chunk)).isTrue();
    }

    @Test
    void theOldestChunksGoFirstWhenTheCountOrTheBytesWouldExceedTheLimits() {
        BoundaryChunks edges = new BoundaryChunks(budget, 2, 8 << 10);
        ManifestEntry a = chunk(1, 1024);
        ManifestEntry b = chunk(2, 1024);
        ManifestEntry c = chunk(3, 1024);
        edges.finish(edges.produce(a), new byte[1024], 0, 1024);
        edges.finish(edges.produce(b), new byte[1024], 0, 1024);
        edges.finish(edges.produce(c), new byte[1024], 0, 1024);
        assertThat(edges.has(a)).isFalse();
        assertThat(edges.has(b)).isTrue();
        assertThat(edges.has(c)).isTrue();
        ManifestEntry big = chunk(4, 7 << 10);
        edges.finish(edges.produce(big), new byte[7 << 10], 0, 7 << 10);
        assertThat(edges.has(b)).isFalse();
        assertThat(edges.has(c)).isTrue();
        assertThat(edges.has(big)).isTrue();
        assertThat(edges.keptBytes()).isEqualTo(8 << 10);
        assertThat(budget.availableKib()).isEqualTo(64 - 8);
        edges.clear();
        assertThat(budget.availableKib()).isEqualTo(64);
    }

    @Test
    void nothingIsKeptWhenTheReadBudgetHasNoRoomFree() {
        BoundaryChunks edges = new BoundaryChunks(budget, 4, BUDGET);
        try (BufferBudget.Reservation all = budget.reserve(BUDGET - 1024)) {
            edges.finish(edges.produce(chunk(1, 3000)), new byte[3000], 0, 3000);
            assertThat(edges.keptBytes()).isZero();
            assertThat(edges.has(chunk(1, 3000))).isFalse();
        }
        edges.finish(edges.produce(chunk(1, 3000)), new byte[3000], 0, 3000);
        assertThat(edges.keptBytes()).isEqualTo(3072);
    }

    private static ManifestEntry chunk(int id, int length) {
        byte[] idBytes = new byte[ChunkId.LENGTH];
        idBytes[0] = (byte) id;
        // one key per id, as a manifest has
        byte[] key = new byte[ChunkKey.LENGTH];
        key[0] = (byte) id;
        return new ManifestEntry(ChunkId.of(idBytes), ChunkKey.of(key), new byte[32], length);
    }
}

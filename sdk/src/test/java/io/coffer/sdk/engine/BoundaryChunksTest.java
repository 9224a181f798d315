package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.manifest.ManifestEntry;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The kept edge chunks of ranged GETs: handed out once, only for the same chunk id and key, within their count and
 * byte limits, and every byte they keep is held in the read budget until the chunk is dropped or its taker closes the
 * share it took.
 */
class BoundaryChunksTest {
    private static final long BUDGET = 64 << 10;
    private final BufferBudget budget = new BufferBudget(BUDGET, Duration.ofMillis(100));

    @Test
    void aKeptChunkIsHandedOutOnceWithItsBytesAndItsShareOfTheReadBudget() {
        BoundaryChunks kept = new BoundaryChunks(budget, 4, BUDGET / 2);
        ManifestEntry chunk = chunk(1, 3000);
        byte[] run = new byte[5000];
        Arrays.fill(run, 100, 3100, (byte) 7);
        kept.offer(chunk, run, 100, 3000);
        assertThat(kept.keptBytes()).isEqualTo(3072);
        assertThat(budget.availableKib()).isEqualTo(64 - 3);

        BoundaryChunks.Kept got = kept.take(chunk);
        assertThat(got.plain()).hasSize(3000).containsOnly((byte) 7);
        assertThat(kept.take(chunk)).isNull();
        assertThat(kept.keptBytes()).isZero();
        assertThat(budget.availableKib()).isEqualTo(64 - 3); // the taker holds it now
        got.share().close();
        assertThat(budget.availableKib()).isEqualTo(64);
    }

    @Test
    void aChunkIsNotHandedOutForAnotherKeyOrLength() {
        BoundaryChunks kept = new BoundaryChunks(budget, 4, BUDGET / 2);
        ManifestEntry chunk = chunk(1, 3000);
        kept.offer(chunk, new byte[3000], 0, 3000);
        ManifestEntry otherKey = new ManifestEntry(chunk.id(), ChunkKey.random(), chunk.hash(), 3000);
        ManifestEntry otherLength = new ManifestEntry(chunk.id(), chunk.key(), chunk.hash(), 2999);
        assertThat(kept.has(otherKey)).isFalse();
        assertThat(kept.take(otherKey)).isNull();
        assertThat(kept.take(otherLength)).isNull();
        assertThat(kept.has(chunk)).isTrue();
    }

    @Test
    void theOldestChunksGoFirstWhenTheCountOrTheBytesWouldExceedTheLimits() {
        BoundaryChunks kept = new BoundaryChunks(budget, 2, 8 << 10);
        ManifestEntry a = chunk(1, 1024);
        ManifestEntry b = chunk(2, 1024);
        ManifestEntry c = chunk(3, 1024);
        kept.offer(a, new byte[1024], 0, 1024);
        kept.offer(b, new byte[1024], 0, 1024);
        kept.offer(c, new byte[1024], 0, 1024);
        assertThat(kept.has(a)).isFalse();
        assertThat(kept.has(b)).isTrue();
        assertThat(kept.has(c)).isTrue();
        ManifestEntry big = chunk(4, 7 << 10);
        kept.offer(big, new byte[7 << 10], 0, 7 << 10);
        assertThat(kept.has(b)).isFalse();
        assertThat(kept.has(c)).isTrue();
        assertThat(kept.has(big)).isTrue();
        assertThat(kept.keptBytes()).isEqualTo(8 << 10);
        assertThat(budget.availableKib()).isEqualTo(64 - 8);
        kept.clear();
        assertThat(budget.availableKib()).isEqualTo(64);
    }

    @Test
    void nothingIsKeptWhenTheReadBudgetHasNoRoomFree() {
        BoundaryChunks kept = new BoundaryChunks(budget, 4, BUDGET);
        try (BufferBudget.Reservation all = budget.reserve(BUDGET - 1024)) {
            kept.offer(chunk(1, 3000), new byte[3000], 0, 3000);
            assertThat(kept.keptBytes()).isZero();
        }
        kept.offer(chunk(1, 3000), new byte[3000], 0, 3000);
        assertThat(kept.keptBytes()).isEqualTo(3072);
    }

    private static ManifestEntry chunk(int id, int length) {
        byte[] idBytes = new byte[ChunkId.LENGTH];
        idBytes[0] = (byte) id;
        return new ManifestEntry(ChunkId.of(idBytes), ChunkKey.random(), new byte[32], length);
    }
}

package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.T0;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.assertCode;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.id;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.ids;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.newChunks;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.meta.PackUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Packs and their chunks as garbage collection sees them, mixed into {@link MetadataStoreContractTest} so that they run on
 * every dialect: what is live within the grace period, and retiring a pack without losing a live chunk.
 */
interface PacksContract extends StoreContract {
    @Test
    default void packUsageCountsReferencedAndRecentlyReleasedChunksAsLive() {
        bucket("b");
        metadata().registerPack(new PackRecord("p2", 1000, T0), newChunks("p2", 5).chunks());
        metadata().commitObject(object("b", "k", "v1", 1, 2, 3), newChunks("p1", 1, 2, 3), Precondition.NONE, null);
        metadata().commitObject(object("b", "k", "v2", 1), NewChunks.NONE, Precondition.NONE, null);
        // chunks 2 and 3 and the never-referenced 5 are released "now": live within the grace period
        Instant past = Instant.now().minus(Duration.ofHours(1));
        Instant future = Instant.now().plus(Duration.ofHours(1));

        List<PackUsage> recent = metadata().packUsage(past);
        assertThat(recent).extracting(u -> u.pack().name()).containsExactly("p1", "p2");
        assertThat(recent.get(0).liveBytes()).isEqualTo(300);
        assertThat(recent.get(0).liveChunks()).isEqualTo(3);
        assertThat(recent.get(0).deadChunks()).isZero();
        assertThat(recent.get(0).deadBytes()).isEqualTo(10);
        assertThat(recent.get(1).liveChunks()).isEqualTo(1);

        List<PackUsage> later = metadata().packUsage(future);
        assertThat(later.get(0).liveBytes()).isEqualTo(100);
        assertThat(later.get(0).liveChunks()).isEqualTo(1);
        assertThat(later.get(0).deadChunks()).isEqualTo(2);
        assertThat(later.get(0).deadBytes()).isEqualTo(210);
        assertThat(later.get(1).liveBytes()).isZero();
        assertThat(later.get(1).deadChunks()).isEqualTo(1);
        assertThat(metadata().packs()).extracting(PackRecord::name).containsExactly("p1", "p2");
        assertThat(metadata().packs().get(0)).isEqualTo(new PackRecord("p1", 310, T0));
    }

    @Test
    default void retirePackMovesLiveChunksDropsDeadOnesAndRefusesToLoseLiveOnes() {
        bucket("b");
        metadata().commitObject(object("b", "k", "v1", 1, 2, 3), newChunks("old", 1, 2, 3), Precondition.NONE, null);
        metadata().commitObject(object("b", "k", "v2", 1, 2), NewChunks.NONE, Precondition.NONE, null);
        metadata().registerPack(new PackRecord("new", 300, T0), List.of());
        Instant future = Instant.now().plus(Duration.ofHours(1));

        // chunk 2 is referenced but not moved: nothing may change
        assertCode(ErrorCode.CONFLICT_RETRY, () -> metadata().retirePack("old",
                List.of(new ChunkLocation(id(1), "new", 0, 100)), future));
        assertThat(metadata().locate(ids(1, 2, 3)).values()).extracting(ChunkLocation::pack).containsOnly("old");
        assertThat(metadata().packs()).extracting(PackRecord::name).containsExactly("new", "old");

        // chunk 3 was released but is still within the grace period (cutoff in the past): live, not moved
        assertCode(ErrorCode.CONFLICT_RETRY, () -> metadata().retirePack("old", List.of(
                new ChunkLocation(id(1), "new", 0, 100), new ChunkLocation(id(2), "new", 100, 100)),
                Instant.now().minus(Duration.ofHours(1))));
        assertThat(metadata().locate(ids(3))).containsKey(id(3));

        metadata().retirePack("old", List.of(new ChunkLocation(id(1), "new", 0, 100),
                new ChunkLocation(id(2), "new", 100, 100)), future);
        Map<ChunkId, ChunkLocation> located = metadata().locate(ids(1, 2, 3));
        assertThat(located).containsOnlyKeys(id(1), id(2));
        assertThat(located.get(id(2))).isEqualTo(new ChunkLocation(id(2), "new", 100, 100));
        assertThat(List.of(refs(1), refs(2))).containsExactly(1L, 1L);
        assertThat(metadata().packs()).extracting(PackRecord::name).containsExactly("new");
        assertThat(metadata().packUsage(future)).extracting(u -> u.pack().name()).containsExactly("new");

        assertThat(metadata().retiredPacks(Instant.now().minus(Duration.ofHours(1)))).isEmpty();
        assertThat(metadata().retiredPacks(future)).containsExactly("old");
        assertCode(ErrorCode.INVALID_ARGUMENT, () -> metadata().forgetPack("new"));
        metadata().forgetPack("old");
        assertThat(metadata().retiredPacks(future)).isEmpty();
        metadata().forgetPack("old");

        // the object still reads and a commit referencing a dropped chunk is a conflict
        assertThat(metadata().object("b", "k")).map(ObjectRecord::versionId).contains("v2");
        assertCode(ErrorCode.CONFLICT_RETRY, () -> metadata().commitObject(object("b", "k2", "v3", 3), NewChunks.NONE,
                Precondition.NONE, null));
        assertThat(metadata().object("b", "k2")).isEmpty();
    }
}

package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.T0;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.id;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.ids;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.newChunks;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketStats;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.UsageStats;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PackRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Whole-store views of the metadata store, mixed into {@link MetadataStoreContractTest} so that they run on every
 * dialect: emptiness, version ids and the storage statistics per bucket, tenant and store.
 */
interface StoreStatsContract extends StoreContract {
    @Test
    default void statsVersionIdsAndEmptiness() {
        assertThat(metadata().isEmpty()).isTrue();
        assertThat(metadata().stats()).isEqualTo(new StoreStats(0, 0, 0, 0, 0, 0));
        assertThat(metadata().versionIds()).isEmpty();

        bucket("b");
        assertThat(metadata().isEmpty()).isFalse();
        metadata().commitObject(object("b", "x", "v1", 1, 2), newChunks("p1", 1, 2), Precondition.NONE, null);
        metadata().commitObject(object("b", "y", "v2", 1, 2, 3), newChunks("p2", 3), Precondition.NONE, null);
        assertThat(metadata().stats()).isEqualTo(new StoreStats(2, 50, 3, 300, 2, 210 + 110));
        assertThat(metadata().versionIds()).containsExactlyInAnyOrder("v1", "v2");

        metadata().commitObject(object("b", "x", "v3", 3), NewChunks.NONE, Precondition.NONE, null);
        assertThat(metadata().versionIds()).containsExactlyInAnyOrder("v3", "v2");
        assertThat(metadata().stats().objects()).isEqualTo(2);
        assertThat(metadata().stats().logicalBytes()).isEqualTo(40);
    }

    @Test
    default void packsAloneMakeTheStoreNonEmpty() {
        metadata().registerPack(new PackRecord("p", 10, T0), List.of());
        assertThat(metadata().isEmpty()).isFalse();
        assertThat(metadata().stats()).isEqualTo(new StoreStats(0, 0, 0, 0, 1, 10));
    }

    @Test
    default void storageStatsCountDistinctChunksPerBucketTenantAndStore() {
        assertThat(metadata().storageStats()).isEqualTo(new StorageStats(List.of(), Map.of(), UsageStats.EMPTY, 0, 0));
        metadata().createBucket(new Bucket("a", "alice", null, T0));
        metadata().createBucket(new Bucket("b", "bob", null, T0));
        metadata().createBucket(new Bucket("c", "alice", null, T0));
        // chunk 1 stored compressed (300 plaintext bytes in 100), 2 uncompressed (format 2: 16 bytes of tag), 3 of
        // unknown plaintext length (indexed as reindex indexes chunks)
        NewChunks p1 = new NewChunks(List.of(new PackRecord("p1", 400, T0)), List.of(
                new ChunkLocation(id(1), "p1", 0, 100, 300), new ChunkLocation(id(2), "p1", 100, 116, 100),
                new ChunkLocation(id(3), "p1", 216, 50)));
        metadata().commitObject(sized("a", "x", 400, 1, 2), p1, Precondition.NONE, null);
        metadata().commitObject(sized("a", "y", 300, 1), NewChunks.NONE, Precondition.NONE, null);
        metadata().commitObject(sized("a", "small", 5), NewChunks.NONE, Precondition.NONE, null);
        metadata().commitObject(sized("b", "z", 150, 2, 3), NewChunks.NONE, Precondition.NONE, null);

        StorageStats stats = metadata().storageStats();
        // a: chunk 1 counts once although two objects share it; b shares chunk 2 with a and counts it too
        UsageStats a = new UsageStats(3, 705, 1, 5, 3 * 8, 2, 400, 216, 0);
        UsageStats b = new UsageStats(1, 150, 0, 0, 8, 2, 150, 166, 1);
        assertThat(stats.buckets()).containsExactly(new BucketStats("a", "alice", a), new BucketStats("b", "bob", b),
                new BucketStats("c", "alice", UsageStats.EMPTY));
        assertThat(stats.tenants()).containsExactly(Map.entry("alice", a), Map.entry("bob", b));
        assertThat(stats.store()).isEqualTo(new UsageStats(4, 855, 1, 5, 4 * 8, 3, 450, 266, 1));
        assertThat(stats.packs()).isEqualTo(1);
        assertThat(stats.packBytes()).isEqualTo(400);
        assertThat(a.dedupRatio()).isEqualTo(700.0 / 400);
        assertThat(a.compressionRatio()).isEqualTo(400.0 / 216);
        assertThat(a.totalRatio()).isEqualTo(700.0 / 216);
        assertThat(UsageStats.EMPTY.dedupRatio()).isNaN();
    }

    @Test
    default void storageStatsSplitLongChunkListsIntoEveryId() {
        bucket("b");
        int n = 1001;
        List<ChunkLocation> locations = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            locations.add(new ChunkLocation(id(i), "p", 10L * i, 10, 20 + i % 3));
        }
        int[] all = IntStream.range(0, n).toArray();
        int[] some = IntStream.range(0, n).filter(i -> i % 7 == 0).toArray();
        metadata().commitObject(sized("b", "all", 20L * n, all), new NewChunks(List.of(new PackRecord("p", 10L * n, T0)),
                locations), Precondition.NONE, null);
        metadata().commitObject(sized("b", "some", 20L * some.length, some), NewChunks.NONE, Precondition.NONE, null);

        long plain = IntStream.range(0, n).mapToLong(i -> 20 + i % 3).sum();
        UsageStats usage = metadata().storageStats().buckets().get(0).usage();
        assertThat(usage.chunks()).isEqualTo(n);
        assertThat(usage.referencedBytes()).isEqualTo(plain);
        assertThat(usage.storedBytes()).isEqualTo(10L * n);
    }

    /** An object of {@code size} bytes referencing {@code chunks}, with a manifest of 8 bytes. */
    static ObjectRecord sized(String bucket, String key, long size, int... chunks) {
        return new ObjectRecord(bucket, key, "v-" + bucket + key, size, "etag", T0, new byte[] {1},
                "manifest".getBytes(StandardCharsets.UTF_8), ids(chunks));
    }
}

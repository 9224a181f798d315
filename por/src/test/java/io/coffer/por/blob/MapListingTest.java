package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Listing the block map page by page, alone and merged with another store's listing. */
class MapListingTest {
    @TempDir
    Path dir;

    @Test
    void aListingFetchesPageAfterPageInNameOrder() {
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("m.db"))) {
            BlockMapStore map = meta.blockMap();
            List<String> names = List.of("p/e", "p/a", "p/c", "p/b", "p/d", "q/z");
            for (int i = 0; i < names.size(); i++) {
                map.put(new Entry(names.get(i), i, new int[] {i}, Instant.ofEpochMilli(i)), i + 1, new byte[] {1});
            }

            assertThat(new MapListing(map, "p/", 2)).extracting(BlobInfo::name)
                    .containsExactly("p/a", "p/b", "p/c", "p/d", "p/e");
            assertThat(new MapListing(map, "p/", 5)).extracting(BlobInfo::size).containsExactly(1L, 3L, 2L, 4L, 0L);
            assertThat(new MapListing(map, "r/", 2)).isEmpty();
        }
    }

    @Test
    void aMergedListingInterleavesBothInOrderAndLeavesOutTheOthersNamesUnderTheMappedPrefix() {
        Instant t = Instant.EPOCH;
        BlobListing mapped = BlobListing.of(List.of(new BlobInfo("p/a", 1, t), new BlobInfo("p/c", 1, t)));
        BlobListing others = BlobListing.of(List.of(new BlobInfo("a", 1, t), new BlobInfo("p/b", 1, t),
                new BlobInfo("q", 1, t)));

        assertThat(MapListing.merged(mapped, others, "p/")).extracting(BlobInfo::name)
                .containsExactly("a", "p/a", "p/c", "q");
    }
}

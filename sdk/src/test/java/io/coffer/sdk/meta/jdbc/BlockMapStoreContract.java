package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import io.coffer.sdk.meta.BlockMapStore.FreeBlocks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link BlockMapStore} contract, mixed into {@link MetadataStoreContractTest} so that it runs on every dialect.
 */
interface BlockMapStoreContract {
    Instant T = Instant.parse("2026-01-02T03:04:05.678Z");
    byte[] STATE_A = {1, 2, 3};
    byte[] STATE_B = {4, 5, 6, 7};

    /** The store under test. */
    JdbcMetadataStore metadata();

    /** Reopens the store on the same database and returns the new one (which the test then uses). */
    JdbcMetadataStore reopenMetadata();

    private BlockMapStore map() {
        return metadata().blockMap();
    }

    @Test
    default void aNewBlockMapHasNoStateAndEveryIndexFree() {
        assertThat(map().state()).isEmpty();
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(0, new int[0]));
        assertThat(map().entry("p/none")).isEmpty();
        assertThat(map().list("", null, 10)).isEmpty();
    }

    @Test
    default void putStoresTheEntryTheStateAndTheNextUnusedIndexTogether() {
        Entry e = new Entry("p/a", 100_000, new int[] {0, 1, 2}, T);
        map().put(e, 3, STATE_A);

        assertThat(map().entry("p/a")).contains(e);
        assertThat(map().state()).hasValueSatisfying(s -> assertThat(s).containsExactly(STATE_A));
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(3, new int[0]));
    }

    @Test
    default void removeFreesTheBlocksAndReusedIndicesLeaveTheFreeSet() {
        map().put(new Entry("p/a", 10, new int[] {0, 1}, T), 2, STATE_A);
        map().put(new Entry("p/b", 10, new int[] {2, 3}, T), 4, STATE_A);
        map().remove("p/a", STATE_B);

        assertThat(map().entry("p/a")).isEmpty();
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(4, new int[] {0, 1}));
        assertThat(map().state()).hasValueSatisfying(s -> assertThat(s).containsExactly(STATE_B));

        map().put(new Entry("p/c", 10, new int[] {1, 4}, T), 5, STATE_A);
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(5, new int[] {0}));
    }

    @Test
    default void replacingAnEntryFreesTheBlocksItNoLongerHolds() {
        map().put(new Entry("p/a", 10, new int[] {0, 1, 2}, T), 3, STATE_A);
        Entry replacement = new Entry("p/a", 20, new int[] {2, 3}, T.plusSeconds(1));
        map().put(replacement, 4, STATE_B);

        assertThat(map().entry("p/a")).contains(replacement);
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(4, new int[] {0, 1}));
    }

    @Test
    default void removingAMissingEntryStoresOnlyTheState() {
        map().put(new Entry("p/a", 10, new int[] {0}, T), 1, STATE_A);
        map().remove("p/missing", STATE_B);

        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(1, new int[0]));
        assertThat(map().state()).hasValueSatisfying(s -> assertThat(s).containsExactly(STATE_B));
    }

    @Test
    default void saveStateChangesOnlyTheState() {
        Entry e = new Entry("p/a", 10, new int[] {0, 1}, T);
        map().put(e, 2, STATE_A);
        map().saveState(STATE_B);

        assertThat(map().entry("p/a")).contains(e);
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(2, new int[0]));
        assertThat(map().state()).hasValueSatisfying(s -> assertThat(s).containsExactly(STATE_B));
    }

    @Test
    default void aRefusedChangeChangesNothing() {
        map().put(new Entry("p/a", 10, new int[] {0}, T), 1, STATE_A);

        assertThatThrownBy(() -> map().put(new Entry("p/b", 10, new int[] {1}, T), 2, null))
                .isInstanceOf(CofferException.class);
        assertThat(map().entry("p/b")).isEmpty();
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(1, new int[0]));
        assertThatThrownBy(() -> map().list("p/", null, 0)).isInstanceOf(CofferException.class);
    }

    @Test
    default void listingIsByPrefixInByteOrderPageByPage() {
        List<String> names = List.of("p/0", "p/a", "p/a-", "p/a/b", "p/b", "q/a", "o/z");
        int next = 0;
        for (String name : names) {
            map().put(new Entry(name, next, new int[] {next}, T), next + 1, STATE_A);
            next++;
        }
        List<String> paged = new ArrayList<>();
        String after = null;
        for (List<Entry> page; !(page = map().list("p/", after, 2)).isEmpty(); ) {
            assertThat(page.size()).isLessThanOrEqualTo(2);
            page.forEach(e -> paged.add(e.name()));
            after = page.get(page.size() - 1).name();
        }

        assertThat(paged).containsExactly("p/0", "p/a", "p/a-", "p/a/b", "p/b");
        assertThat(map().list("", null, 100)).extracting(Entry::name)
                .containsExactly("o/z", "p/0", "p/a", "p/a-", "p/a/b", "p/b", "q/a");
        assertThat(map().list("p/", "a", 100)).hasSize(5);
    }

    @Test
    default void replaceAllSetsTheWholeMap() {
        map().put(new Entry("p/old", 10, new int[] {0, 1}, T), 2, STATE_A);
        List<Entry> rebuilt = List.of(new Entry("p/x", 5, new int[] {3}, T), new Entry("p/y", 7, new int[] {0, 5}, T));
        map().replaceAll(rebuilt, new FreeBlocks(6, new int[] {1, 2, 4}), STATE_B);

        assertThat(map().list("", null, 10)).isEqualTo(rebuilt);
        assertThat(map().freeBlocks()).isEqualTo(new FreeBlocks(6, new int[] {1, 2, 4}));
        assertThat(map().state()).hasValueSatisfying(s -> assertThat(s).containsExactly(STATE_B));
    }

    @Test
    default void theBlockMapSurvivesAReopen() {
        Entry e = new Entry("p/a", 1 << 20, new int[] {7, 3, 9}, T);
        map().put(e, 10, STATE_A);

        BlockMapStore reopened = reopenMetadata().blockMap();
        assertThat(reopened.entry("p/a")).contains(e);
        assertThat(reopened.state()).hasValueSatisfying(s -> assertThat(s).containsExactly(STATE_A));
        assertThat(reopened.freeBlocks().nextUnused()).isEqualTo(10);
    }
}

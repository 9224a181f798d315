package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.coffer.por.server.PorServer;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Consolidation of the pack store (appendix A.3): a store that grew and then lost most of its packs moves the live
 * packs above the new capacity below it and shrinks; every pack reads back, audits pass, the map rebuilt from U is the
 * committed one, and the store reopens from its database and from the state backup alone. Not due while at most half
 * of the indices used are deleted or below the floor. A crash (the process gone: the store dropped, its database and
 * the server kept) at any write of the moves or at the shrink loses no pack, and the next pass completes.
 */
class PorBlobStoreConsolidateTest extends WithPorStore {
    private static final int BLOCK = 4096;

    /** Grown from 16 to 64 blocks by 14 packs of 4 blocks; all but three deleted, two of them high in U. */
    private void grownThenMostlyDeleted(int b) throws IOException {
        f = PorStoreFixture.open(dir, 4, b, BLOCK);
        for (int i = 0; i < 14; i++) {
            f.put(f.store, "p/pack" + i, 3 * BLOCK + 100 * i, i); // 4 blocks each, header included
        }
        assertThat(f.store.capacity()).isEqualTo(64);
        for (int i = 0; i < 14; i++) {
            if (i != 1 && i != 11 && i != 13) {
                f.store.delete("p/pack" + i);
                f.packs.remove("p/pack" + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aStoreThatGrewAndLostMostOfItsPacksShrinksAndEveryPackReadsBack(int b) throws IOException {
        grownThenMostlyDeleted(b);

        PorConsolidationReport report = f.store.consolidate(4);

        assertThat(report.shrank()).isTrue();
        assertThat(report.capacityAfter()).isEqualTo(32); // twice the 12 blocks in use fit in 32
        assertThat(report.packsMoved()).isEqualTo(2);
        assertThat(report.blocksMoved()).isEqualTo(8);
        assertThat(f.store.capacity()).isEqualTo(32);
        assertThat(f.server.k()).isEqualTo(5);
        assertThat(f.store.blocksUsed()).isEqualTo(12);
        f.assertEveryPackReadsBack(f.store);
        List<Entry> map = f.metadata.blockMap().list("", null, 100);
        assertThat(map).allMatch(e -> java.util.Arrays.stream(e.blocks()).allMatch(i -> i < 32));
        assertThat(f.store.rebuildMap()).isEqualTo(map);
        assertThat(f.store.consolidate(4).shrank()).isFalse(); // at most half full now: nothing due

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));
        assertThat(reopened.capacity()).isEqualTo(32);
        f.assertEveryPackReadsBack(reopened);
        PorBlobStore fromBackup = f.reopen(dir.resolve("fresh.db")); // the database lost: the map comes from U
        assertThat(f.metadata.blockMap().list("", null, 100)).isEqualTo(map);
        f.assertEveryPackReadsBack(fromBackup);
        for (int i = 20; i < 26; i++) { // grows again past 32
            f.put(fromBackup, "p/again" + i, 3 * BLOCK, i);
        }
        assertThat(fromBackup.capacity()).isEqualTo(64);
        f.assertEveryPackReadsBack(fromBackup);
    }

    @Test
    void noShrinkIsDueWhileAtMostHalfTheUsedIndicesAreDeletedOrBelowTheFloor() throws IOException {
        f = PorStoreFixture.open(dir, 4, 1, BLOCK);
        for (int i = 0; i < 14; i++) {
            f.put(f.store, "p/pack" + i, 3 * BLOCK, i);
        }
        for (int i = 0; i < 7; i++) { // 28 of 56 deleted: not more than half
            f.store.delete("p/pack" + i);
            f.packs.remove("p/pack" + i);
        }
        assertThat(f.store.consolidate(4).shrank()).isFalse();
        f.store.delete("p/pack7");
        f.packs.remove("p/pack7");
        assertThat(f.store.consolidate(6).shrank()).isFalse(); // the floor: 64 blocks
        assertThat(f.store.capacity()).isEqualTo(64);

        assertThat(f.store.consolidate(4).capacityAfter()).isEqualTo(64); // 24 in use: 48 > 32
        f.assertEveryPackReadsBack(f.store);
    }

    /** Kills the process at the {@code killAt}-th block write of the pass, or (0) at the shrink once applied. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 4, 5, 6, 8, 9, 12, 13, 16})
    void aCrashAtAnyStepOfTheMovesOrTheShrinkLosesNoPackAndTheNextPassCompletes(int killAt) throws IOException {
        grownThenMostlyDeleted(1);
        int[] writes = {0};
        PorServer dying = (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(),
                new Class<?>[] {PorServer.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(f.server, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (killAt == 0 ? method.getName().equals("resize")
                            : method.getName().equals("write") && ++writes[0] == killAt) {
                        throw new IllegalStateException("killed");
                    }
                    return result;
                });
        PorBlobStore doomed = f.reopen(dying);

        assertThatThrownBy(() -> doomed.consolidate(4)).hasStackTraceContaining("killed");

        PorBlobStore restarted = f.reopen(dir.resolve("meta.db"));
        f.assertEveryPackReadsBack(restarted);
        // U may hold both complete copies of a pack cut in its move: a map rebuilt from U has one of them
        assertThat(restarted.rebuildMap()).extracting(Entry::name, Entry::length).isEqualTo(
                f.metadata.blockMap().list("", null, 100).stream().map(e -> tuple(e.name(), e.length())).toList());
        restarted.consolidate(4);
        assertThat(restarted.capacity()).isEqualTo(32);
        assertThat(f.server.k()).isEqualTo(5);
        f.assertEveryPackReadsBack(restarted);
        PorBlobStore fromBackup = f.reopen(dir.resolve("fresh.db"));
        f.assertEveryPackReadsBack(fromBackup);
        f.put(fromBackup, "p/after", 5 * BLOCK, 77);
        f.assertEveryPackReadsBack(fromBackup);
    }

    @Test
    void aShrinkWhoseAnswerWasLostIsFollowedInProcessAndTheStoreGoesOn() throws IOException {
        grownThenMostlyDeleted(1);
        KilledServer killed = new KilledServer(f.server, "resize"); // the server dies after it shrank
        PorBlobStore store = f.reopen(killed.proxy());

        assertThatThrownBy(() -> store.consolidate(4)).isInstanceOf(IOException.class)
                .hasMessageContaining("cannot shrink");
        assertThat(f.server.k()).isEqualTo(5);
        killed.restart();

        f.put(store, "p/next", 2 * BLOCK, 5); // the put resynchronises first, to the server's 32 blocks
        assertThat(store.capacity()).isEqualTo(32);
        f.assertEveryPackReadsBack(store);
    }
}

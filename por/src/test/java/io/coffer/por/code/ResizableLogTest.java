package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ResizableLogTest {
    private static final int ELEMENTS = 2;
    private static final int WIDTH = ELEMENTS + 1;

    private final List<int[]> u = new ArrayList<>(); // the reference U: tagged vectors, deleted ones empty
    private final List<Boolean> deleted = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(31);

    private VectorSource source() {
        return (i, into) -> System.arraycopy(i < u.size() ? u.get(i) : BlockTag.empty(ELEMENTS, i), 0, into, 0,
                WIDTH);
    }

    @Test
    void insertsGrowTheCapacityDeletesConsolidateItAndHalfOfHAndCAlwaysGiveBackU() {
        ResizableLog log = new ResizableLog(k -> new MemoryLevelStore(new CodeParameters(k), WIDTH),
                LogState.empty(0), 0, 0);
        log.rebuildC(source());
        int grownTo = 0;
        int consolidations = 0;
        for (int op = 1; op <= 6000; op++) {
            boolean growing = op <= 3000;
            int dice = random.nextInt(100);
            List<Integer> live = indices(false);
            List<Integer> dead = indices(true);
            if (u.isEmpty() || dice < (growing ? 45 : 10)) {
                int index = u.size();
                u.add(BlockTag.tag(CodeVectors.random(random, ELEMENTS), index));
                deleted.add(false);
                assertThat(log.insert(u.get(index), source())).isEqualTo(index);
            } else if (dice < (growing ? 70 : 45) && !live.isEmpty()) {
                int index = live.get(random.nextInt(live.size()));
                u.set(index, BlockTag.tag(CodeVectors.random(random, ELEMENTS), index));
                log.write(index, u.get(index), source());
            } else if (dice < (growing ? 90 : 95) && !live.isEmpty()) {
                int index = live.get(random.nextInt(live.size()));
                u.set(index, BlockTag.empty(ELEMENTS, index));
                deleted.set(index, true);
                log.delete(index, u.get(index), source());
            } else if (!dead.isEmpty()) {
                int index = dead.get(random.nextInt(dead.size()));
                u.set(index, BlockTag.tag(CodeVectors.random(random, ELEMENTS), index));
                deleted.set(index, false);
                log.reuse(index, u.get(index), source());
            }
            assertThat(log.size()).isEqualTo(u.size());
            assertThat(log.deleted()).isEqualTo(indices(true).size());
            if (log.consolidationDue()) {
                int before = log.capacity();
                compact();
                log.consolidate(u.size(), source());
                assertThat(log.capacity()).isLessThanOrEqualTo(before);
                assertThat(log.capacity()).isGreaterThanOrEqualTo(u.size());
                assertThat(log.capacity() / 2).isLessThan(Math.max(u.size(), 1));
                consolidations++;
            }
            grownTo = Math.max(grownTo, log.capacity());
            if (op % 37 == 0) {
                assertRecovers(log);
            }
        }
        assertRecovers(log);
        assertThat(grownTo).isGreaterThanOrEqualTo(512);
        assertThat(consolidations).isPositive();
    }

    private void assertRecovers(ResizableLog log) {
        MemoryLevelStore store = (MemoryLevelStore) log.store();
        int capacity = log.capacity();
        int[][] expected = new int[capacity][];
        for (int i = 0; i < capacity; i++) {
            expected[i] = i < u.size() ? u.get(i) : BlockTag.empty(ELEMENTS, i);
        }
        CodeParameters params = log.log().parameters();
        Recovery recovery = new Recovery(params);
        assertThat(recovery.recover(log.log().runs(), CodeVectors.halfOfEachRunLost(store, log.log().runs(), random),
                CodeVectors.halfOfCLost(store, params, random))).isEqualTo(expected);
    }

    /** Moves the live blocks to the front, in order, retagged with their new indices. */
    private void compact() {
        List<int[]> kept = new ArrayList<>();
        for (int i = 0; i < u.size(); i++) {
            if (!deleted.get(i)) {
                kept.add(BlockTag.tag(BlockTag.elements(u.get(i)), kept.size()));
            }
        }
        u.clear();
        u.addAll(kept);
        deleted.clear();
        kept.forEach(v -> deleted.add(false));
    }

    private List<Integer> indices(boolean wanted) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < deleted.size(); i++) {
            if (deleted.get(i) == wanted) {
                out.add(i);
            }
        }
        return out;
    }

    @Test
    void misuseIsRefused() {
        ResizableLog log = new ResizableLog(k -> new MemoryLevelStore(new CodeParameters(k), WIDTH),
                LogState.empty(1), 1, 0);
        u.add(BlockTag.tag(new int[ELEMENTS], 0));
        log.rebuildC(source());
        assertThatThrownBy(() -> log.write(1, BlockTag.tag(new int[ELEMENTS], 1), source()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in use");
        assertThatThrownBy(() -> log.write(0, BlockTag.tag(new int[ELEMENTS], 1), source()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tagged 1");
        assertThatThrownBy(() -> log.insert(BlockTag.tag(new int[ELEMENTS], 5), source()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes index 1");
        assertThatThrownBy(() -> log.reuse(0, BlockTag.tag(new int[ELEMENTS], 0), source()))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> log.consolidate(0, source())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ResizableLog(k -> null, LogState.empty(1), 3, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

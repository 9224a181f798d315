package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Decoding in slices of element positions gives the blocks whole decoding gives, whatever the slice width. */
class SlicedRecoveryTest {
    private static final int K = 8;
    private static final int ELEMENTS = 9;
    private static final int WIDTH = ELEMENTS + 1;

    @Test
    void slicesOfEveryWidthGiveTheBlocksOfTheCurrentUWithHalfOfEveryLevelLost() {
        for (int b : new int[] {0, 2}) {
            CodeParameters params = new CodeParameters(K);
            int n = params.n();
            SplittableRandom random = new SplittableRandom(b + 5);
            int[][] u = new int[n][];
            for (int i = 0; i < n; i++) {
                u[i] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), i);
            }
            MemoryLevelStore h = new MemoryLevelStore(new CodeParameters(K - b), WIDTH << b);
            MemoryLevelStore c = new MemoryLevelStore(params, WIDTH);
            BatchedLog log = new BatchedLog(K, b, h, LogState.empty(K - b), c, LogState.empty(K));
            log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, WIDTH));
            for (int write = 0; write < n + 150; write++) { // one C rebuild, then levels of H filled
                int index = random.nextInt(3) == 0 ? random.nextInt(8) : random.nextInt(n);
                u[index] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), index);
                if (log.add(u[index])) {
                    log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, WIDTH));
                }
            }
            if (b > 0) {
                log.add(u[3]);
                log.flush(); // a padded batch
            }
            SlicedRecovery.SliceReader hLost = SlicedRecovery.SliceReader.of(RecoveryTest.halfLost(h,
                    new CodeParameters(K - b), random, 0));
            SlicedRecovery.SliceReader cLost = SlicedRecovery.SliceReader.of(RecoveryTest.halfLost(c, params, random,
                    0));
            int[] asked = new int[n];
            for (int i = 0; i < n; i++) {
                asked[i] = (i * 37 + 11) % n; // every block, out of order
            }
            // budgets for one element position per slice, three, and the whole block
            for (long budget : new long[] {1, 4L * 2 * n * (16 + 3 * 4), 1L << 30}) {
                int[][] blocks = new SlicedRecovery(params, b, WIDTH, budget).recover(log.h().runs(), hLost, cLost,
                        asked);
                for (int i = 0; i < n; i++) {
                    assertThat(blocks[i]).as("b = %d, budget %d, block %d", b, budget, asked[i])
                            .isEqualTo(u[asked[i]]);
                }
            }
            int[] some = {5, 5, 200, 0};
            int[][] blocks = new SlicedRecovery(params, b, WIDTH, 1).recover(log.h().runs(), hLost, cLost, some);
            for (int i = 0; i < some.length; i++) {
                assertThat(blocks[i]).isEqualTo(u[some[i]]);
            }
        }
    }

    @Test
    void aDamagedTagOrAnIndexOutOfRangeIsReported() {
        CodeParameters params = new CodeParameters(3);
        MemoryLevelStore store = new MemoryLevelStore(params, 2);
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(3));
        log.rebuildC((i, into) -> System.arraycopy(BlockTag.tag(new int[] {7}, i ^ 1), 0, into, 0, 2));
        SlicedRecovery.SliceReader reader = SlicedRecovery.SliceReader.of(store::copy);
        SlicedRecovery recovery = new SlicedRecovery(params, 0, 2, 1 << 20);
        assertThatThrownBy(() -> recovery.recover(log.runs(), reader, reader, new int[] {2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tagged 1 at position 0");
        assertThatThrownBy(() -> recovery.recover(log.runs(), reader, reader, new int[] {8}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside [0, 8)");
    }

    @Test
    void everyLevelIsReadOncePerSliceForAllBlocksAskedAndAWholePartSparesTheOther() {
        CodeParameters params = new CodeParameters(K);
        int n = params.n();
        SplittableRandom random = new SplittableRandom(9);
        int[][] u = new int[n][];
        for (int i = 0; i < n; i++) {
            u[i] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), i);
        }
        MemoryLevelStore h = new MemoryLevelStore(params, WIDTH);
        MemoryLevelStore c = new MemoryLevelStore(params, WIDTH);
        BatchedLog log = new BatchedLog(K, 0, h, LogState.empty(K), c, LogState.empty(K));
        log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, WIDTH));
        for (int write = 0; write < 150; write++) { // levels 1, 2, 4 and 7 of H filled
            int index = random.nextInt(n);
            u[index] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), index);
            log.add(u[index]);
        }
        long budget = 4L * 2 * n * (16 + 3 * 4); // three positions of C per slice
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        Map<String, Integer> readsForOne = new HashMap<>();
        Map<String, Integer> readsForAll = new HashMap<>();
        new SlicedRecovery(params, 0, WIDTH, budget).recover(log.h().runs(), counting(h, readsForOne),
                counting(c, readsForOne), new int[] {7});
        int[][] puts = new int[n][WIDTH];
        new SlicedRecovery(params, 0, WIDTH, budget).recover(log.h().runs(), counting(h, readsForAll),
                counting(c, readsForAll), all, (row, from, elements, offset, length) -> {
                    for (int j = 0; j < length; j++) {
                        puts[row][from + j]++;
                        assertThat(elements[offset + j]).isEqualTo(u[row][from + j]);
                    }
                });

        for (int[] row : puts) {
            assertThat(row).as("every position of every block put once").containsOnly(1);
        }
        // each level once for its tags, then once per slice: C in ceil(10 / 3) slices, the runs in one; no Y part
        assertThat(readsForAll).isEqualTo(Map.of("9X", 1 + 4, "1X", 2, "2X", 2, "4X", 2, "7X", 2));
        readsForOne.forEach((part, reads) -> assertThat(reads).isLessThanOrEqualTo(readsForAll.get(part)));
    }

    private static SlicedRecovery.SliceReader counting(MemoryLevelStore store, Map<String, Integer> reads) {
        SlicedRecovery.SliceReader inner = SlicedRecovery.SliceReader.of(store::copy);
        return (level, part, from, count, positions) -> {
            reads.merge(level + part.name(), 1, Integer::sum);
            return inner.read(level, part, from, count, positions);
        };
    }
}

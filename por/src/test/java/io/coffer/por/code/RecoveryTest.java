package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecoveryTest {
    private static final int K = 10;
    private static final int ELEMENTS = 3;

    @Test
    void afterTenThousandRandomWritesHalfOfEveryLevelAndOfCGiveBackTheCurrentU() {
        CodeParameters params = new CodeParameters(K);
        int n = params.n();
        SplittableRandom random = new SplittableRandom(8);
        int[][] u = new int[n][];
        for (int i = 0; i < n; i++) {
            u[i] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), i);
        }
        MemoryLevelStore store = new MemoryLevelStore(params, ELEMENTS + 1);
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(K));
        log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, ELEMENTS + 1));
        Recovery recovery = new Recovery(params);
        int checks = 0;
        for (int write = 1; write <= 10_000; write++) {
            // a third of the writes go to 16 hot blocks, so the log holds many stale duplicates
            int index = random.nextInt(3) == 0 ? random.nextInt(16) : random.nextInt(n);
            u[index] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), index);
            if (log.add(u[index])) {
                log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, ELEMENTS + 1));
            }
            if (write % 331 == 0 || write == 10_000 || log.state().t() == n - 1) {
                assertThat(recovery.recover(log.state(), halfLost(store, params, random, 0))).isEqualTo(u);
                checks++;
            }
        }
        assertThat(checks).isEqualTo(40); // 30 every 331 writes, 9 with all levels 0..k-1 filled, the last
    }

    @Test
    void losingMoreThanHalfOfALevelIsReportedNotMisdecoded() {
        CodeParameters params = new CodeParameters(4);
        SplittableRandom random = new SplittableRandom(9);
        MemoryLevelStore store = new MemoryLevelStore(params, 2);
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(4));
        log.rebuildC((i, into) -> System.arraycopy(BlockTag.tag(new int[] {i}, i), 0, into, 0, 2));
        for (int t = 0; t < 7; t++) {
            log.add(BlockTag.tag(CodeVectors.random(random, 1), random.nextInt(16)));
        }
        assertThatThrownBy(() -> new Recovery(params).recover(log.state(), halfLost(store, params, random, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only");
    }

    @Test
    void aDamagedTagIsReported() {
        CodeParameters params = new CodeParameters(3);
        MemoryLevelStore store = new MemoryLevelStore(params, 2);
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(3));
        log.rebuildC((i, into) -> System.arraycopy(BlockTag.tag(new int[] {7}, i ^ 1), 0, into, 0, 2));
        assertThatThrownBy(() -> new Recovery(params).recover(log.state(), (level, part) -> store.copy(level, part)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tagged 1 at position 0");
    }

    /** A reader that loses, in each filled level and in C, half of the code vectors plus {@code extra}, at random. */
    static Recovery.PartReader halfLost(MemoryLevelStore store, CodeParameters params, SplittableRandom random,
            int extra) {
        int[][][][] parts = new int[params.cLevel() + 1][2][][];
        for (int level = 0; level <= params.cLevel(); level++) {
            int[][] x = store.copy(level, Part.X);
            int[][] y = store.copy(level, Part.Y);
            if (x[0] != null) {
                int size = x.length;
                int lost = 0;
                while (lost < size + extra) {
                    int e = random.nextInt(2 * size);
                    int[][] part = e < size ? x : y;
                    if (part[e % size] != null) {
                        part[e % size] = null;
                        lost++;
                    }
                }
            }
            parts[level][0] = x;
            parts[level][1] = y;
        }
        return (level, part) -> parts[level][part.ordinal()];
    }
}

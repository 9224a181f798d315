package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeamortizedLogTest {

    @Test
    void theRunsCoverEveryWriteOnceAndEachEqualsEquationOne() {
        SplittableRandom random = new SplittableRandom(21);
        for (int k = 1; k <= 7; k++) {
            CodeParameters params = new CodeParameters(k);
            int n = params.n();
            MemoryLevelStore store = new MemoryLevelStore(params, 2, DeamortizedLog.SLOTS);
            DeamortizedLog log = new DeamortizedLog(params, store, LogState.empty(k));
            int[][] writes = new int[n][];
            for (int t = 0; t < n; t++) {
                writes[t] = CodeVectors.random(random, 2);
                assertThat(log.add(writes[t])).isEqualTo(t == n - 1);
                assertThat(CodeVectors.assertRunsAreTheCodeOfTheirWrites(params, store, log.runs(), writes))
                        .isEqualTo(t + 1);
            }
            // by the epoch's end the first half of its writes sits in one complete run of level k - 1
            assertThat(log.runs().get(0).level()).isEqualTo(Math.max(k - 1, 0));
        }
    }

    @Test
    void everyWriteDoesAtMostTwoButterfliesPerLevelWhereHAddDoesUpToTheWholeLevel() {
        int k = 12;
        CodeParameters params = new CodeParameters(k);
        SplittableRandom random = new SplittableRandom(22);
        CountingLevelStore deamortizedStore =
                new CountingLevelStore(new MemoryLevelStore(params, 2, DeamortizedLog.SLOTS));
        CountingLevelStore amortizedStore = new CountingLevelStore(new MemoryLevelStore(params, 2));
        DeamortizedLog deamortized = new DeamortizedLog(params, deamortizedStore, LogState.empty(k));
        HierarchicalLog amortized = new HierarchicalLog(params, amortizedStore, LogState.empty(k));
        int bound = 2 + 4 * (k - 1); // the level-0 run, then per merged level 2 parts * (2 reads, 2 writes)
        long worstDeamortized = 0;
        long worstAmortized = 0;
        long totalDeamortized = 0;
        for (int t = 0; t < params.n(); t++) {
            int[] v = CodeVectors.random(random, 2);
            deamortizedStore.reset();
            deamortized.add(v);
            amortizedStore.reset();
            amortized.add(v);
            assertThat(deamortizedStore.writes).isLessThanOrEqualTo(bound);
            assertThat(deamortizedStore.reads).isLessThanOrEqualTo(bound - 2);
            worstDeamortized = Math.max(worstDeamortized, deamortizedStore.writes);
            worstAmortized = Math.max(worstAmortized, amortizedStore.writes);
            totalDeamortized += deamortizedStore.writes;
        }
        assertThat(worstAmortized).isGreaterThanOrEqualTo(2L << k); // the last write rebuilds level k
        assertThat(worstDeamortized).isGreaterThan(bound / 2); // the bound is nearly reached, not vacuous
        assertThat(totalDeamortized).isLessThan((long) bound * params.n());
    }

    @Test
    void halfOfEveryRunAndOfCGiveBackUAcrossEpochs() {
        int k = 9;
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        SplittableRandom random = new SplittableRandom(23);
        int[][] u = new int[n][];
        for (int i = 0; i < n; i++) {
            u[i] = BlockTag.tag(CodeVectors.random(random, 2), i);
        }
        MemoryLevelStore store = new MemoryLevelStore(params, 3, DeamortizedLog.SLOTS);
        DeamortizedLog log = new DeamortizedLog(params, store, LogState.empty(k));
        log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, 3));
        Recovery recovery = new Recovery(params);
        for (int write = 1; write <= 3 * n + 77; write++) {
            int index = random.nextInt(2) == 0 ? random.nextInt(8) : random.nextInt(n);
            u[index] = BlockTag.tag(CodeVectors.random(random, 2), index);
            if (log.add(u[index])) {
                assertThat(recovery.recover(log.runs(), CodeVectors.halfOfEachRunLost(store, log.runs(), random), store::copy))
                        .isEqualTo(u);
                log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, 3));
            }
            if (write % 61 == 0) {
                List<LogRun> runs = log.runs();
                assertThat(recovery.recover(runs, CodeVectors.halfOfEachRunLost(store, runs, random), store::copy)).isEqualTo(u);
            }
        }
        assertThat(log.state().epoch()).isEqualTo(4);
    }
}

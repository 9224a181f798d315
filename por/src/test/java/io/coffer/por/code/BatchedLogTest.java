package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BatchedLogTest {
    private static final int K = 10;
    private static final int BATCH_EXPONENT = 3; // batches of 8 blocks, about log2(n) as section 6.1 suggests
    private static final int ELEMENTS = 3;
    private static final int WIDTH = ELEMENTS + 1;

    @Test
    void batchesEnterHAtOneAddPerBatchAndCPlusHGiveBackU() {
        CodeParameters params = new CodeParameters(K);
        MemoryLevelStore hStore = new MemoryLevelStore(new CodeParameters(K - BATCH_EXPONENT), WIDTH << BATCH_EXPONENT);
        MemoryLevelStore cStore = new MemoryLevelStore(params, WIDTH);
        BatchedLog log = new BatchedLog(K, BATCH_EXPONENT, hStore, LogState.empty(K - BATCH_EXPONENT), cStore,
                LogState.empty(K));
        assertBatchesAndRecovery(log, hStore, cStore, 13);
    }

    @Test
    void batchesWorkTheSameOverADeamortizedH() {
        CodeParameters hParams = new CodeParameters(K - BATCH_EXPONENT);
        CodeParameters params = new CodeParameters(K);
        MemoryLevelStore hStore = new MemoryLevelStore(hParams, WIDTH << BATCH_EXPONENT, DeamortizedLog.SLOTS);
        MemoryLevelStore cStore = new MemoryLevelStore(params, WIDTH);
        BatchedLog log = new BatchedLog(BATCH_EXPONENT, new DeamortizedLog(hParams, hStore, LogState.empty(
                K - BATCH_EXPONENT)), WIDTH << BATCH_EXPONENT, new HierarchicalLog(params, cStore, LogState.empty(K)),
                WIDTH);
        assertBatchesAndRecovery(log, hStore, cStore, 14);
    }

    private static void assertBatchesAndRecovery(BatchedLog log, MemoryLevelStore hStore, MemoryLevelStore cStore,
            long seed) {
        CodeParameters params = new CodeParameters(K);
        int n = params.n();
        SplittableRandom random = new SplittableRandom(seed);
        int[][] u = new int[n][];
        for (int i = 0; i < n; i++) {
            u[i] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), i);
        }
        log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, WIDTH));
        Recovery recovery = new Recovery(params, BATCH_EXPONENT);
        int epochs = 0;
        for (int write = 1; write <= 3 * n + 100; write++) {
            int index = random.nextInt(4) == 0 ? random.nextInt(8) : random.nextInt(n);
            u[index] = BlockTag.tag(CodeVectors.random(random, ELEMENTS), index);
            int addsBefore = log.h().state().t();
            int pendingBefore = log.pending();
            boolean due = log.add(u[index]);
            assertThat(log.h().state().t() - addsBefore).isEqualTo(pendingBefore == 7 ? 1 : 0);
            if (due) {
                assertThat(log.h().state().t()).isEqualTo(n >> BATCH_EXPONENT);
                log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, WIDTH));
                epochs++;
            }
            if (write % 97 == 0) {
                log.flush(); // a partial batch, padded
                assertThat(recovery.recover(log.h().runs(), CodeVectors.halfOfEachRunLost(hStore, log.h().runs(),
                        random), CodeVectors.halfOfCLost(cStore, params, random))).isEqualTo(u);
            }
        }
        assertThat(epochs).isEqualTo(3); // partial batches (flushed every 97 writes) fill epochs a little early
        assertThat(log.h().state().epoch()).isEqualTo(4);
    }

    @Test
    void misuseIsRefused() {
        MemoryLevelStore cStore = new MemoryLevelStore(new CodeParameters(4), WIDTH);
        assertThatThrownBy(() -> new BatchedLog(4, 2, new MemoryLevelStore(new CodeParameters(2), WIDTH), LogState
                .empty(2), cStore, LogState.empty(4))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 4 * 4");
        assertThatThrownBy(() -> new BatchedLog(2, new HierarchicalLog(new CodeParameters(3), new MemoryLevelStore(
                new CodeParameters(3), 4 * WIDTH), LogState.empty(3)), 4 * WIDTH, new HierarchicalLog(
                new CodeParameters(4), cStore, LogState.empty(4)), WIDTH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected 2^2");
        BatchedLog log = new BatchedLog(4, 2, new MemoryLevelStore(new CodeParameters(2), 4 * WIDTH),
                LogState.empty(2), cStore, LogState.empty(4));
        log.add(BlockTag.tag(new int[ELEMENTS], 3));
        assertThat(log.pending()).isEqualTo(1);
        assertThatThrownBy(() -> log.rebuildC((i, into) -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pending");
        assertThatThrownBy(() -> log.add(new int[2])).isInstanceOf(IllegalArgumentException.class);
    }
}

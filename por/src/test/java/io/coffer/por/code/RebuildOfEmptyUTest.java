package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** C of a new store, computed for the tag position alone, is the code a full CRebuild of the all-zero U gives. */
class RebuildOfEmptyUTest {
    private static final int WIDTH = 5;

    @Test
    void theTagPositionAloneGivesTheSameCAsAFullRebuildOfTheEmptyU() {
        for (int k = 0; k <= 10; k++) {
            CodeParameters params = new CodeParameters(k);
            MemoryLevelStore full = new MemoryLevelStore(params, WIDTH);
            new HierarchicalLog(params, full, LogState.empty(k)).rebuildC((i, into) -> {
                java.util.Arrays.fill(into, 0);
                into[WIDTH - 1] = i + 1;
            });
            MemoryLevelStore sparse = new MemoryLevelStore(params, WIDTH);
            HierarchicalLog log = new HierarchicalLog(params, sparse, LogState.empty(k));
            log.rebuildCOneElement(WIDTH - 1, i -> i + 1);

            assertThat(log.state()).isEqualTo(new LogState(k, 0, 1));
            int[] expected = new int[WIDTH];
            int[] actual = new int[WIDTH];
            for (Part part : Part.values()) {
                for (int j = 0; j < params.n(); j++) {
                    full.read(params.cLevel(), part, j, expected);
                    sparse.read(params.cLevel(), part, j, actual);
                    assertThat(actual).as("k = %d, %s[%d]", k, part, j).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void aBatchedLogOfANewStoreDecodesToTheEmptyU() {
        int k = 6;
        int b = 2;
        int blockWidth = 4;
        MemoryLevelStore h = new MemoryLevelStore(new CodeParameters(k - b), blockWidth << b);
        MemoryLevelStore c = new MemoryLevelStore(new CodeParameters(k), blockWidth);
        BatchedLog log = new BatchedLog(k, b, h, LogState.empty(k - b), c, LogState.empty(k));
        log.rebuildCOfEmptyU();

        int[][] u = new Recovery(new CodeParameters(k), b).recover(log.h().state(), h::copy, c::copy);
        for (int i = 0; i < u.length; i++) {
            assertThat(u[i]).isEqualTo(BlockTag.empty(blockWidth - 1, i));
        }
    }
}

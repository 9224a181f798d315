package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * C of a store grown from 2^usedK blocks, computed from the used blocks alone and repeated with the new blocks' tags
 * added ({@link HierarchicalLog#rebuildCWithEmptyTail}), is the code a full CRebuild of the grown U gives.
 */
class RebuildOfGrownUTest {
    private static final int WIDTH = 4;

    @Test
    void theUsedBlocksAloneGiveTheSameCAsAFullRebuildAndTheNewOnesAreNotRead() {
        SplittableRandom random = new SplittableRandom(23);
        for (int k = 0; k <= 9; k++) {
            CodeParameters params = new CodeParameters(k);
            for (int usedK = 0; usedK <= k; usedK++) {
                int used = 1 << usedK;
                int[][] u = new int[params.n()][];
                for (int i = 0; i < u.length; i++) {
                    u[i] = i < used ? BlockTag.tag(CodeVectors.random(random, WIDTH - 1), i)
                            : BlockTag.empty(WIDTH - 1, i);
                }
                MemoryLevelStore full = new MemoryLevelStore(params, WIDTH);
                new HierarchicalLog(params, full, LogState.empty(k)).rebuildC(CodeVectors.source(u));
                // groups of two vectors: the used code's store passes run too
                for (int groupBytes : new int[] {HierarchicalLog.GROUP_BYTES, 2 * WIDTH * Integer.BYTES}) {
                    MemoryLevelStore grown = new MemoryLevelStore(params, WIDTH);
                    HierarchicalLog log = new HierarchicalLog(params, grown, LogState.empty(k), null, groupBytes);
                    int[] highest = {-1};
                    log.rebuildCWithEmptyTail((i, into) -> {
                        highest[0] = Math.max(highest[0], i);
                        System.arraycopy(u[i], 0, into, 0, WIDTH);
                    }, usedK, WIDTH - 1, BlockTag::valueOf);

                    assertThat(highest[0]).as("k = %d, used 2^%d", k, usedK).isEqualTo(used - 1);
                    assertThat(log.state()).isEqualTo(new LogState(k, 0, 1));
                    for (Part part : Part.values()) {
                        assertThat(grown.copy(params.cLevel(), part)).as("k = %d, used 2^%d, %s", k, usedK, part)
                                .isEqualTo(full.copy(params.cLevel(), part));
                    }
                }
            }
        }
    }

    @Test
    void aBatchedLogOfAGrownStoreDecodesToItsU() {
        int k = 7;
        int b = 2;
        int usedK = 4;
        SplittableRandom random = new SplittableRandom(24);
        int[][] u = new int[1 << k][];
        for (int i = 0; i < u.length; i++) {
            u[i] = i < 1 << usedK ? BlockTag.tag(CodeVectors.random(random, WIDTH - 1), i)
                    : BlockTag.empty(WIDTH - 1, i);
        }
        MemoryLevelStore h = new MemoryLevelStore(new CodeParameters(k - b), WIDTH << b);
        MemoryLevelStore c = new MemoryLevelStore(new CodeParameters(k), WIDTH);
        BatchedLog log = new BatchedLog(k, b, h, LogState.empty(k - b), c, LogState.empty(k));
        log.rebuildCOfGrownU(CodeVectors.source(u), usedK);

        assertThat(new Recovery(new CodeParameters(k), b).recover(log.h().state(), h::copy, c::copy)).isEqualTo(u);
        assertThat(CodeVectors.cIsTheCodeOf(new CodeParameters(k), c, u)).isTrue();
    }

    @Test
    void aUsedCapacityOutsideTheStoreIsRefused() {
        HierarchicalLog log = new HierarchicalLog(new CodeParameters(3), new MemoryLevelStore(new CodeParameters(3),
                WIDTH), LogState.empty(3));
        assertThatThrownBy(() -> log.rebuildCWithEmptyTail((i, into) -> { }, 4, WIDTH - 1, BlockTag::valueOf))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> log.rebuildCWithEmptyTail((i, into) -> { }, 2, WIDTH, BlockTag::valueOf))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

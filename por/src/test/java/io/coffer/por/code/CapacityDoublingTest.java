package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.field.Zp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What a grow from 2^k to 2^(k+1) blocks could keep (docs/POR.md, "Not built yet"): w at k + 1 is a square root of w
 * at k ({@link Zp#rootOfUnity} takes powers of one generator), so a level's X half, f at the even powers of its own
 * root, does not depend on n, and its Y multiplier c = w^psi_(k-l)(t0 / 2^l) is the same number at k + 1 for every
 * start t0 < n. C at k + 1 is f'(z) = f(z^2) + z g(z^2), with f the polynomial of the first n indices at k and g
 * that of the new ones: f(z^2) at the 4n-th roots of unity is C at k twice over.
 */
class CapacityDoublingTest {
    private static final int WIDTH = 3;

    @Test
    void cAtTwiceTheCapacityIsEachVectorOfCTwicePlusTheCodeOfTheNewIndicesAlone() {
        SplittableRandom random = new SplittableRandom(19);
        for (int k = 0; k <= 7; k++) {
            CodeParameters small = new CodeParameters(k);
            CodeParameters large = new CodeParameters(k + 1);
            int n = small.n();
            assertThat(Zp.mul(large.w(), large.w())).isEqualTo(small.w());
            int[][] u = CodeVectors.taggedU(random, n, WIDTH);
            int[][] grown = new int[2 * n][];
            int[][] newOnly = new int[2 * n][];
            for (int i = 0; i < 2 * n; i++) {
                grown[i] = i < n ? u[i] : BlockTag.empty(WIDTH - 1, i);
                newOnly[i] = i < n ? new int[WIDTH] : BlockTag.empty(WIDTH - 1, i);
            }
            MemoryLevelStore c = rebuilt(small, u);
            MemoryLevelStore cGrown = rebuilt(large, grown);
            MemoryLevelStore cNew = rebuilt(large, newOnly);
            for (Part part : Part.values()) {
                int[][] before = c.copy(small.cLevel(), part);
                int[][] after = cGrown.copy(large.cLevel(), part);
                int[][] added = cNew.copy(large.cLevel(), part);
                for (int j = 0; j < 2 * n; j++) {
                    for (int e = 0; e < WIDTH - 1; e++) {
                        assertThat(added[j][e]).as("the new indices' code holds only tags").isZero();
                    }
                    assertThat(after[j]).as("k = %d, %s[%d]", k, part, j)
                            .isEqualTo(sum(before[j % n], added[j]));
                }
            }
        }
    }

    @Test
    void theRunsOfHAtKAreTheCodeOfTheirWritesAtKPlusOneAndTheLogGoesOnThereWithoutARebuild() {
        SplittableRandom random = new SplittableRandom(20);
        for (int k = 1; k <= 6; k++) {
            CodeParameters small = new CodeParameters(k);
            CodeParameters large = new CodeParameters(k + 1);
            int n = small.n();
            for (int grownAt = 1; grownAt < n; grownAt++) {
                int[][] writes = new int[2 * n][];
                MemoryLevelStore before = new MemoryLevelStore(small, WIDTH, DeamortizedLog.SLOTS);
                DeamortizedLog log = new DeamortizedLog(small, before, LogState.empty(k));
                for (int t = 0; t < grownAt; t++) {
                    writes[t] = CodeVectors.random(random, WIDTH);
                    log.add(writes[t]);
                }
                assertThat(CodeVectors.assertRunsAreTheCodeOfTheirWrites(large, before, log.runs(), writes))
                        .isEqualTo(grownAt);
                MemoryLevelStore after = new MemoryLevelStore(large, WIDTH, DeamortizedLog.SLOTS);
                for (int level = 0; level < k; level++) {
                    for (Part part : Part.values()) {
                        int[][] vectors = before.copy(level, part);
                        for (int i = 0; i < vectors.length; i++) {
                            if (before.contains(level, part, i)) {
                                after.write(level, part, i, vectors[i]);
                            }
                        }
                    }
                }
                DeamortizedLog grown = new DeamortizedLog(large, after, new LogState(k + 1, grownAt, 1));
                for (int t = grownAt; t < 2 * n; t++) {
                    writes[t] = CodeVectors.random(random, WIDTH);
                    assertThat(grown.add(writes[t])).isEqualTo(t == 2 * n - 1);
                    assertThat(CodeVectors.assertRunsAreTheCodeOfTheirWrites(large, after, grown.runs(), writes))
                            .isEqualTo(t + 1);
                }
            }
        }
    }

    private static MemoryLevelStore rebuilt(CodeParameters params, int[][] u) {
        MemoryLevelStore store = new MemoryLevelStore(params, WIDTH);
        new HierarchicalLog(params, store, LogState.empty(params.k())).rebuildC(CodeVectors.source(u));
        return store;
    }

    private static int[] sum(int[] a, int[] b) {
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = Zp.add(a[i], b[i]);
        }
        return out;
    }
}

package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.field.Zp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class HierarchicalLogTest {

    @Test
    void everyFilledLevelAndCEqualTheClosedFormOfEquationOne() {
        SplittableRandom random = new SplittableRandom(1);
        for (int k = 0; k <= 5; k++) {
            CodeParameters params = new CodeParameters(k);
            int n = params.n();
            MemoryLevelStore store = new MemoryLevelStore(params, 3);
            HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(k));
            int[][] u = new int[n][];
            for (int i = 0; i < n; i++) {
                u[i] = CodeVectors.random(random, 3);
            }
            log.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, 3));
            assertMatchesClosedForm(params, store, params.cLevel(), 0, u);
            for (int round = 0; round < 2; round++) {
                List<int[]> writes = new ArrayList<>();
                for (int t = 0; t < n; t++) {
                    int[] v = CodeVectors.random(random, 3);
                    writes.add(v);
                    boolean due = log.add(v);
                    assertThat(due).isEqualTo(t == n - 1);
                    LogState state = log.state();
                    assertThat(state.t()).isEqualTo(t + 1);
                    for (int level = 0; level <= k; level++) {
                        if (state.filled(level)) {
                            int start = state.start(level);
                            int[][] levelWrites = writes.subList(start, start + (1 << level)).toArray(new int[0][]);
                            assertMatchesClosedForm(params, store, level, start, levelWrites);
                        } else {
                            assertThat(store.contains(level, Part.X, 0)).isFalse();
                            assertThat(store.contains(level, Part.Y, 0)).isFalse();
                        }
                    }
                }
                int[][] current = writes.toArray(new int[0][]);
                log.rebuildC((i, into) -> System.arraycopy(current[i], 0, into, 0, 3));
                assertThat(log.state()).isEqualTo(new LogState(k, 0, round + 2));
                assertMatchesClosedForm(params, store, params.cLevel(), 0, current);
                // the same C when CRebuild's in-memory groups hold only 2 vectors and the other passes use the store
                MemoryLevelStore grouped = new MemoryLevelStore(params, 3);
                new HierarchicalLog(params, grouped, LogState.empty(k), null, 2 * 3 * 4)
                        .rebuildC((i, into) -> System.arraycopy(current[i], 0, into, 0, 3));
                assertMatchesClosedForm(params, grouped, params.cLevel(), 0, current);
                for (int level = 0; level <= k; level++) {
                    assertThat(store.contains(level, Part.X, 0)).isFalse();
                }
            }
        }
    }

    @Test
    void cRebuildTakesAsManyStagesPerStorePassAsItsGroupHoldsAndGivesTheSameC() {
        SplittableRandom random = new SplittableRandom(3);
        for (int k = 6; k <= 9; k++) {
            CodeParameters params = new CodeParameters(k);
            int n = params.n();
            int[][] u = new int[n][];
            for (int i = 0; i < n; i++) {
                u[i] = CodeVectors.random(random, 3);
            }
            for (int groupBits = 1; groupBits <= 4; groupBits++) {
                MemoryLevelStore store = new MemoryLevelStore(params, 3);
                int[] reads = new int[1];
                LevelStore counted = new ForwardingLevelStore(store) {
                    @Override
                    public void read(int level, Part part, int index, int[] into) {
                        reads[0]++;
                        super.read(level, part, index, into);
                    }
                };
                new HierarchicalLog(params, counted, LogState.empty(k), null, (1 << groupBits) * 3 * 4)
                        .rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, 3));
                assertMatchesClosedForm(params, store, params.cLevel(), 0, u);
                // the k - g stages left after the groups in memory, g at a time, each pass reading C's 2n vectors once
                int passes = (k - groupBits + groupBits - 1) / groupBits;
                assertThat(reads[0]).as("store reads at k = %d, g = %d", k, groupBits).isEqualTo(passes * 2 * n);
            }
        }
    }

    private static void assertMatchesClosedForm(CodeParameters params, MemoryLevelStore store, int level, int start,
            int[][] writes) {
        int closedLevel = level == params.cLevel() ? params.k() : level;
        int[][][] expected = CodeVectors.closedForm(params, closedLevel, start, writes);
        assertThat(store.copy(level, Part.X)).as("X of level %d", level).isEqualTo(expected[0]);
        assertThat(store.copy(level, Part.Y)).as("Y of level %d", level).isEqualTo(expected[1]);
    }

    @Test
    void theCodeOfALinearCombinationIsTheCombinationOfTheCodes() {
        SplittableRandom random = new SplittableRandom(2);
        CodeParameters params = new CodeParameters(6);
        int n = params.n();
        int width = 4;
        int alpha = random.nextInt(Zp.P);
        int beta = random.nextInt(Zp.P);
        MemoryLevelStore[] stores = new MemoryLevelStore[3];
        HierarchicalLog[] logs = new HierarchicalLog[3];
        int[][][] us = new int[3][n][width];
        for (int i = 0; i < 3; i++) {
            stores[i] = new MemoryLevelStore(params, width);
            logs[i] = new HierarchicalLog(params, stores[i], LogState.empty(6));
        }
        for (int i = 0; i < n; i++) {
            us[0][i] = CodeVectors.random(random, width);
            us[1][i] = CodeVectors.random(random, width);
            us[2][i] = combine(alpha, us[0][i], beta, us[1][i]);
        }
        for (int i = 0; i < 3; i++) {
            int[][] u = us[i];
            logs[i].rebuildC((index, into) -> System.arraycopy(u[index], 0, into, 0, width));
        }
        for (int t = 0; t < 3 * n / 2 + 5; t++) {
            int[] a = CodeVectors.random(random, width);
            int[] b = CodeVectors.random(random, width);
            boolean due = logs[0].add(a);
            logs[1].add(b);
            logs[2].add(combine(alpha, a, beta, b));
            if (due) {
                for (int i = 0; i < 3; i++) {
                    int[][] u = us[i];
                    logs[i].rebuildC((index, into) -> System.arraycopy(u[index], 0, into, 0, width));
                }
            }
            for (int level = 0; level <= params.cLevel(); level++) {
                for (Part part : Part.values()) {
                    int[][] first = stores[0].copy(level, part);
                    int[][] second = stores[1].copy(level, part);
                    int[][] combined = stores[2].copy(level, part);
                    for (int j = 0; j < combined.length; j++) {
                        if (first[j] == null) {
                            assertThat(combined[j]).isNull();
                        } else {
                            assertThat(combined[j]).isEqualTo(combine(alpha, first[j], beta, second[j]));
                        }
                    }
                }
            }
        }
    }

    @Test
    void rebuildingOverChecksumsGivesTheChecksumsOfTheRebuiltVectors() {
        // What the client's simulation relies on (section 5.4): sigma = M * B commutes with every rebuild.
        SplittableRandom random = new SplittableRandom(3);
        CodeParameters params = new CodeParameters(7);
        int n = params.n();
        int width = 40;
        int rho = 5;
        int[][] m = new int[rho][];
        for (int r = 0; r < rho; r++) {
            m[r] = CodeVectors.random(random, width);
        }
        MemoryLevelStore blocks = new MemoryLevelStore(params, width);
        MemoryLevelStore checksums = new MemoryLevelStore(params, rho);
        HierarchicalLog server = new HierarchicalLog(params, blocks, LogState.empty(7));
        HierarchicalLog client = new HierarchicalLog(params, checksums, LogState.empty(7));
        int[][] u = new int[n][];
        for (int i = 0; i < n; i++) {
            u[i] = CodeVectors.random(random, width);
        }
        server.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, width));
        client.rebuildC((i, into) -> System.arraycopy(checksum(m, u[i]), 0, into, 0, rho));
        for (int t = 0; t < 2 * n + 3; t++) {
            int index = random.nextInt(n);
            u[index] = CodeVectors.random(random, width);
            boolean due = server.add(u[index]);
            client.add(checksum(m, u[index]));
            if (due) {
                server.rebuildC((i, into) -> System.arraycopy(u[i], 0, into, 0, width));
                client.rebuildC((i, into) -> System.arraycopy(checksum(m, u[i]), 0, into, 0, rho));
            }
            assertThat(client.state()).isEqualTo(server.state());
            for (int level = 0; level <= params.cLevel(); level++) {
                for (Part part : Part.values()) {
                    int[][] coded = blocks.copy(level, part);
                    int[][] simulated = checksums.copy(level, part);
                    for (int j = 0; j < coded.length; j++) {
                        assertThat(simulated[j]).isEqualTo(coded[j] == null ? null : checksum(m, coded[j]));
                    }
                }
            }
        }
    }

    @Test
    void workingOnTheTwoPartsInParallelGivesTheSameCodeAndItsErrors() {
        SplittableRandom random = new SplittableRandom(5);
        CodeParameters params = new CodeParameters(6);
        int n = params.n();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            MemoryLevelStore sequentialStore = new MemoryLevelStore(params, 3);
            MemoryLevelStore parallelStore = new MemoryLevelStore(params, 3);
            HierarchicalLog sequential = new HierarchicalLog(params, sequentialStore, LogState.empty(6));
            // groups of 4 vectors, so CRebuild's store passes run in parallel too
            HierarchicalLog parallel = new HierarchicalLog(params, parallelStore, LogState.empty(6), executor,
                    4 * 3 * 4);
            int[][] u = new int[n][];
            for (int i = 0; i < n; i++) {
                u[i] = CodeVectors.random(random, 3);
            }
            VectorSource source = (i, into) -> System.arraycopy(u[i], 0, into, 0, 3);
            sequential.rebuildC(source);
            parallel.rebuildC(source);
            for (int t = 0; t < n + n / 2; t++) {
                int[] v = CodeVectors.random(random, 3);
                u[random.nextInt(n)] = v;
                if (sequential.add(v)) {
                    sequential.rebuildC(source);
                }
                if (parallel.add(v)) {
                    parallel.rebuildC(source);
                }
                assertThat(parallel.state()).isEqualTo(sequential.state());
                assertThat(parallelStore.sameContents(sequentialStore)).isTrue();
            }
            // level 0 claimed filled but missing: the X part fails on the executor, and the caller sees it
            HierarchicalLog broken = new HierarchicalLog(params, new MemoryLevelStore(params, 3), new LogState(6, 1, 0),
                    executor);
            assertThatThrownBy(() -> broken.add(new int[3])).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no vector 0");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void theDepthFirstRebuildWritesEachVectorOfItsLevelOnceReadsNoneOfItAndEqualsThePasses() {
        SplittableRandom random = new SplittableRandom(6);
        CodeParameters params = new CodeParameters(7);
        int width = 3;
        MemoryLevelStore passesStore = new MemoryLevelStore(params, width);
        MemoryLevelStore depthStore = new MemoryLevelStore(params, width);
        int[] writes = new int[params.k() + 1];
        int[] reads = new int[params.k() + 1];
        LevelStore counting = new LevelStore() {
            @Override
            public int width() {
                return width;
            }

            @Override
            public void read(int level, Part part, int index, int[] into) {
                reads[level]++;
                depthStore.read(level, part, index, into);
            }

            @Override
            public void write(int level, Part part, int index, int[] vector) {
                writes[level]++;
                depthStore.write(level, part, index, vector);
            }

            @Override
            public void clear(int level) {
                depthStore.clear(level);
            }
        };
        // groups of one vector: every HRebuild goes pass by pass; the default budget: depth first at every level
        HierarchicalLog passes = new HierarchicalLog(params, passesStore, LogState.empty(7), null, width * 4);
        HierarchicalLog depthFirst = new HierarchicalLog(params, counting, LogState.empty(7));
        for (int t = 0; t < params.n() - 1; t++) {
            int[] v = CodeVectors.random(random, width);
            passes.add(v);
            Arrays.fill(writes, 0);
            Arrays.fill(reads, 0);
            depthFirst.add(v);
            int level = Integer.numberOfTrailingZeros(~t);
            for (int l = 0; l <= params.k(); l++) {
                assertThat(writes[l]).as("writes of level %d at t = %d", l, t).isEqualTo(l == level ? 2 << l : 0);
                assertThat(reads[l]).as("reads of level %d at t = %d", l, t).isEqualTo(l < level ? 2 << l : 0);
            }
            assertThat(depthStore.sameContents(passesStore)).as("t = %d", t).isTrue();
        }
    }

    @Test
    void aLogResumesFromItsSerialisedState() {
        SplittableRandom random = new SplittableRandom(4);
        CodeParameters params = new CodeParameters(5);
        MemoryLevelStore resumedStore = new MemoryLevelStore(params, 2);
        MemoryLevelStore referenceStore = new MemoryLevelStore(params, 2);
        HierarchicalLog reference = new HierarchicalLog(params, referenceStore, LogState.empty(5));
        HierarchicalLog resumed = new HierarchicalLog(params, resumedStore, LogState.empty(5));
        for (int t = 0; t < 20; t++) {
            int[] v = CodeVectors.random(random, 2);
            reference.add(v);
            resumed = new HierarchicalLog(params, resumedStore, LogState.fromBytes(resumed.state().toBytes()));
            resumed.add(v);
        }
        assertThat(resumed.state()).isEqualTo(new LogState(5, 20, 0));
        assertThat(resumedStore.sameContents(referenceStore)).isTrue();
        assertThat(LogState.fromBytes(resumed.state().toBytes())).isEqualTo(resumed.state());
    }

    @Test
    void badInputIsRefusedWithAClearError() {
        CodeParameters params = new CodeParameters(1);
        HierarchicalLog log = new HierarchicalLog(params, new MemoryLevelStore(params, 2), LogState.empty(1));
        assertThatThrownBy(() -> log.add(new int[3])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 elements");
        log.add(new int[2]);
        assertThat(log.add(new int[2])).isTrue();
        assertThatThrownBy(() -> log.add(new int[2])).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rebuild C first");
        assertThatThrownBy(() -> new HierarchicalLog(params, new MemoryLevelStore(params, 2), LogState.empty(2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LogState(3, 9, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogState.fromBytes(new byte[15])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CodeParameters(CodeParameters.MAX_K + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static int[] combine(int alpha, int[] a, int beta, int[] b) {
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = Zp.add(Zp.mul(alpha, a[i]), Zp.mul(beta, b[i]));
        }
        return out;
    }

    static int[] checksum(int[][] m, int[] block) {
        int[] sigma = new int[m.length];
        for (int r = 0; r < m.length; r++) {
            long acc = 0;
            for (int i = 0; i < block.length; i++) {
                acc = (acc + (long) m[r][i] * block[i]) % Zp.P;
            }
            sigma[r] = (int) acc;
        }
        return sigma;
    }
}

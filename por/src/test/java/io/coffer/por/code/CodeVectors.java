package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.field.Zp;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** Random vectors and the closed form of equation (1), computed straight from its definition, for the tests. */
final class CodeVectors {
    private CodeVectors() {}

    static int[] random(SplittableRandom random, int width) {
        int[] v = new int[width];
        for (int i = 0; i < width; i++) {
            v[i] = random.nextInt(Zp.P);
        }
        return v;
    }

    /**
     * G_l applied by definition: H_l = pi_l(x) [F_l, D_(l,t) F_l] with F_l[s][j] = omega^(s*j), omega = w^(2n / 2^l),
     * and D_(l,t)[s][s] = w^psi_k(t + psi_l(s)), the Y multiplier of the write at position s of pi_l(x). Returns
     * {X, Y}. O(4^l) per element: for small levels only.
     */
    static int[][][] closedForm(CodeParameters params, int level, int start, int[][] writes) {
        int size = 1 << level;
        int width = writes[0].length;
        int omega = Zp.pow(params.w(), (2L * params.n()) >> level);
        int[][] x = new int[size][width];
        int[][] y = new int[size][width];
        for (int s = 0; s < size; s++) {
            int[] permuted = writes[BitReversal.reverse(s, level)];
            int d = Zp.pow(params.w(), params.psi(start + BitReversal.reverse(s, level)));
            for (int j = 0; j < size; j++) {
                int f = Zp.pow(omega, (long) s * j);
                int df = Zp.mul(d, f);
                for (int e = 0; e < width; e++) {
                    x[j][e] = Zp.add(x[j][e], Zp.mul(permuted[e], f));
                    y[j][e] = Zp.add(y[j][e], Zp.mul(permuted[e], df));
                }
            }
        }
        return new int[][][] {x, y};
    }

    /**
     * Asserts that {@code runs} cover writes 0.. in order without gaps and that each run, at its offset in
     * {@code store}, is equation (1) of its writes under {@code params}; returns the number of writes covered.
     */
    static int assertRunsAreTheCodeOfTheirWrites(CodeParameters params, MemoryLevelStore store, List<LogRun> runs,
            int[][] writes) {
        int covered = 0;
        for (LogRun run : runs) {
            assertThat(run.start()).as("runs in write order, without gaps").isEqualTo(covered);
            covered += run.size();
            int[][][] expected = closedForm(params, run.level(), run.start(),
                    Arrays.copyOfRange(writes, run.start(), run.start() + run.size()));
            int from = run.offset();
            int to = from + run.size();
            assertThat(Arrays.copyOfRange(store.copy(run.level(), Part.X), from, to)).isEqualTo(expected[0]);
            assertThat(Arrays.copyOfRange(store.copy(run.level(), Part.Y), from, to)).isEqualTo(expected[1]);
        }
        return covered;
    }

    /** n vectors of {@code width} elements, the last of each its tag (index + 1): a U. */
    static int[][] taggedU(SplittableRandom random, int n, int width) {
        int[][] u = new int[n][];
        for (int i = 0; i < n; i++) {
            u[i] = BlockTag.tag(random(random, width - 1), i);
        }
        return u;
    }

    static int[][] copyOf(int[][] vectors) {
        int[][] copy = new int[vectors.length][];
        for (int i = 0; i < vectors.length; i++) {
            copy[i] = vectors[i].clone();
        }
        return copy;
    }

    /** {@code vectors} as they are when read (not a copy). */
    static VectorSource source(int[][] vectors) {
        return (i, into) -> System.arraycopy(vectors[i], 0, into, 0, into.length);
    }

    /** C (level k + 1 of {@code store}) equals the one-shot CRebuild of {@code u}. */
    static boolean cIsTheCodeOf(CodeParameters params, MemoryLevelStore store, int[][] u) {
        MemoryLevelStore expected = new MemoryLevelStore(params, u[0].length);
        new HierarchicalLog(params, expected, LogState.empty(params.k())).rebuildC(source(u));
        int c = params.cLevel();
        return Arrays.deepEquals(store.copy(c, Part.X), expected.copy(c, Part.X))
                && Arrays.deepEquals(store.copy(c, Part.Y), expected.copy(c, Part.Y));
    }

    /** A reader of H that has lost, at random, half of the code vectors of every run in {@code runs}. */
    static Recovery.PartReader halfOfEachRunLost(MemoryLevelStore store, List<LogRun> runs,
            SplittableRandom random) {
        int[][][] x = new int[20][][];
        int[][][] y = new int[20][][];
        for (LogRun run : runs) {
            int level = run.level();
            if (x[level] == null) {
                x[level] = store.copy(level, Part.X);
                y[level] = store.copy(level, Part.Y);
            }
            int lost = 0;
            while (lost < run.size()) {
                int e = random.nextInt(2 * run.size());
                int[][] part = e < run.size() ? x[level] : y[level];
                int index = run.offset() + e % run.size();
                if (part[index] != null) {
                    part[index] = null;
                    lost++;
                }
            }
        }
        return (level, part) -> part == Part.X ? x[level] : y[level];
    }

    /** A reader of C ({@code store}'s level k + 1) that has lost half of its code vectors at random. */
    static Recovery.PartReader halfOfCLost(MemoryLevelStore store, CodeParameters params, SplittableRandom random) {
        int c = params.cLevel();
        int n = params.n();
        int[][] x = store.copy(c, Part.X);
        int[][] y = store.copy(c, Part.Y);
        int erased = 0;
        while (erased < n) {
            int e = random.nextInt(2 * n);
            int[][] part = e < n ? x : y;
            if (part[e % n] != null) {
                part[e % n] = null;
                erased++;
            }
        }
        return (level, part) -> {
            if (level != c) {
                throw new IllegalArgumentException("this reader serves C only");
            }
            return part == Part.X ? x : y;
        };
    }
}

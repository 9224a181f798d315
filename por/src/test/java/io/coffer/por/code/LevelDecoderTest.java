package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LevelDecoderTest {
    private static final int WIDTH = 2;

    /** The ways of keeping exactly 2^l of a level's 2^(l+1) code vectors the tests try. */
    private enum Kept {
        ALL_X, ALL_Y, RANDOM, FIRST_HALF_X_SECOND_HALF_Y, EVEN_X_ODD_Y, ALL_BUT_ONE_X_AND_ONE_Y
    }

    @Test
    void anyHalfOfEveryLevelUpToTwoToTheSixteenRecoversIt() {
        int k = 16;
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        SplittableRandom random = new SplittableRandom(5);
        MemoryLevelStore store = new MemoryLevelStore(params, WIDTH);
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(k));
        int[][] writes = new int[n][];
        for (int t = 0; t < n - 1; t++) {
            writes[t] = CodeVectors.random(random, WIDTH);
            log.add(writes[t]);
        }
        LevelDecoder decoder = new LevelDecoder(params);
        for (int level = 0; level < k; level++) { // t = n - 1: levels 0..k-1 are all filled
            assertRecoversFromEveryKindOfHalf(decoder, store, log.state(), level, writes, random);
        }
        writes[n - 1] = CodeVectors.random(random, WIDTH);
        log.add(writes[n - 1]);
        assertRecoversFromEveryKindOfHalf(decoder, store, log.state(), k, writes, random);
    }

    private static void assertRecoversFromEveryKindOfHalf(LevelDecoder decoder, MemoryLevelStore store,
            LogState state, int level, int[][] writes, SplittableRandom random) {
        int size = 1 << level;
        int start = state.start(level);
        int[][] expected = java.util.Arrays.copyOfRange(writes, start, start + size);
        for (Kept kept : Kept.values()) {
            if (size == 1 && kept == Kept.ALL_BUT_ONE_X_AND_ONE_Y) {
                continue;
            }
            int[][] x = store.copy(level, Part.X);
            int[][] y = store.copy(level, Part.Y);
            erase(kept, x, y, random);
            assertThat(count(x) + count(y)).isEqualTo(size);
            assertThat(decoder.decode(level, start, x, y)).as("level %d from %s", level, kept).isEqualTo(expected);
            if (level <= 4) {
                int[][] fewer = x.clone();
                int[][] fewerY = y.clone();
                dropOne(fewer, fewerY);
                assertThatThrownBy(() -> decoder.decode(level, start, fewer, fewerY))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs " + size);
            }
        }
    }

    /** Leaves exactly half of the 2 * size code vectors. */
    private static void erase(Kept kept, int[][] x, int[][] y, SplittableRandom random) {
        int size = x.length;
        switch (kept) {
            case ALL_X -> java.util.Arrays.fill(y, null);
            case ALL_Y -> java.util.Arrays.fill(x, null);
            case FIRST_HALF_X_SECOND_HALF_Y -> {
                for (int j = 0; j < size; j++) {
                    (j < size / 2 || size == 1 ? y : x)[j] = null;
                }
            }
            case EVEN_X_ODD_Y -> {
                for (int j = 0; j < size; j++) {
                    (j % 2 == 0 ? y : x)[j] = null;
                }
            }
            case ALL_BUT_ONE_X_AND_ONE_Y -> {
                int keptY = random.nextInt(size);
                int lostX = random.nextInt(size);
                for (int j = 0; j < size; j++) {
                    if (j != keptY) {
                        y[j] = null;
                    }
                }
                x[lostX] = null;
            }
            case RANDOM -> {
                int[] order = new int[2 * size];
                for (int i = 0; i < order.length; i++) {
                    order[i] = i;
                }
                for (int i = order.length - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    int swap = order[i];
                    order[i] = order[j];
                    order[j] = swap;
                }
                for (int i = 0; i < size; i++) {
                    int e = order[i];
                    (e < size ? x : y)[e % size] = null;
                }
            }
            default -> throw new AssertionError(kept);
        }
    }

    private static void dropOne(int[][] x, int[][] y) {
        for (int[][] part : new int[][][] {x, y}) {
            for (int j = 0; j < part.length; j++) {
                if (part[j] != null) {
                    part[j] = null;
                    return;
                }
            }
        }
    }

    private static int count(int[][] part) {
        int c = 0;
        for (int[] v : part) {
            c += v == null ? 0 : 1;
        }
        return c;
    }

    @Test
    void everySubsetOfHalfTheVectorsOfSmallLevelsRecoversThemAtEveryStart() {
        // Lemma 1 exhaustively for levels 0..3 (all C(16, 8) = 12,870 subsets at level 3), for every start a level
        // can have in an epoch of n = 16
        int k = 4;
        CodeParameters params = new CodeParameters(k);
        LevelDecoder decoder = new LevelDecoder(params);
        SplittableRandom random = new SplittableRandom(7);
        for (int level = 0; level <= 3; level++) {
            int size = 1 << level;
            for (int start = 0; start + size <= params.n(); start += size) {
                int[][] writes = new int[size][];
                for (int u = 0; u < size; u++) {
                    writes[u] = CodeVectors.random(random, 1);
                }
                int[][][] code = CodeVectors.closedForm(params, level, start, writes);
                int subsets = 0;
                for (int mask = 0; mask < 1 << (2 * size); mask++) {
                    if (Integer.bitCount(mask) != size) {
                        continue;
                    }
                    int[][] x = new int[size][];
                    int[][] y = new int[size][];
                    for (int j = 0; j < size; j++) {
                        x[j] = (mask >>> j & 1) != 0 ? code[0][j] : null;
                        y[j] = (mask >>> (size + j) & 1) != 0 ? code[1][j] : null;
                    }
                    assertThat(decoder.decode(level, start, x, y)).isEqualTo(writes);
                    subsets++;
                }
                assertThat(subsets).isEqualTo(new int[] {2, 6, 70, 12_870}[level]);
            }
        }
    }

    @Test
    void anyHalfOfCRecoversU() {
        int k = 12;
        CodeParameters params = new CodeParameters(k);
        SplittableRandom random = new SplittableRandom(6);
        int[][] u = new int[params.n()][];
        for (int i = 0; i < u.length; i++) {
            u[i] = CodeVectors.random(random, 3);
        }
        MemoryLevelStore store = new MemoryLevelStore(params, 3);
        new HierarchicalLog(params, store, LogState.empty(k)).rebuildC((i, into) -> System.arraycopy(u[i], 0, into,
                0, 3));
        LevelDecoder decoder = new LevelDecoder(params);
        for (Kept kept : Kept.values()) {
            int[][] x = store.copy(params.cLevel(), Part.X);
            int[][] y = store.copy(params.cLevel(), Part.Y);
            erase(kept, x, y, random);
            assertThat(decoder.decodeC(x, y)).as("U from %s of C", kept).isEqualTo(u);
        }
    }

    @Test
    void elementPositionsDecodeIndependentlySoALevelCanBeDecodedInSlices() {
        // how a server bounds decoding memory: the same level decoded as two slices of element positions
        CodeParameters params = new CodeParameters(8);
        SplittableRandom random = new SplittableRandom(17);
        MemoryLevelStore store = new MemoryLevelStore(params, 10);
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(8));
        for (int t = 0; t < 192; t++) {
            log.add(CodeVectors.random(random, 10));
        }
        int[][] x = store.copy(7, Part.X);
        int[][] y = store.copy(7, Part.Y);
        erase(Kept.RANDOM, x, y, random);
        LevelDecoder decoder = new LevelDecoder(params);
        int[][] whole = decoder.decode(7, 0, x, y);
        int[][] low = decoder.decode(7, 0, slice(x, 0, 4), slice(y, 0, 4));
        int[][] high = decoder.decode(7, 0, slice(x, 4, 10), slice(y, 4, 10));
        for (int u = 0; u < whole.length; u++) {
            assertThat(java.util.Arrays.copyOfRange(whole[u], 0, 4)).isEqualTo(low[u]);
            assertThat(java.util.Arrays.copyOfRange(whole[u], 4, 10)).isEqualTo(high[u]);
        }
    }

    private static int[][] slice(int[][] part, int from, int to) {
        int[][] out = new int[part.length][];
        for (int j = 0; j < part.length; j++) {
            out[j] = part[j] == null ? null : java.util.Arrays.copyOfRange(part[j], from, to);
        }
        return out;
    }

    @Test
    void malformedInputIsRefused() {
        CodeParameters params = new CodeParameters(3);
        LevelDecoder decoder = new LevelDecoder(params);
        int[][] two = {{1}, {2}};
        assertThatThrownBy(() -> decoder.decode(1, 1, two, two)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot start");
        assertThatThrownBy(() -> decoder.decode(4, 0, two, two)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> decoder.decode(2, 0, two, two)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4 vectors per part");
        assertThatThrownBy(() -> decoder.decode(1, 0, new int[][] {{1}, {2, 3}}, new int[2][]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("widths");
    }
}

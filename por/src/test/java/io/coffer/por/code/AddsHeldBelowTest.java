package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteLog#addsHeldBelow}: replaying only the latest W adds, from levels below m full of garbage and the
 * levels above left alone ({@link LowerLevels}), gives every live vector of the levels below m that a log run from
 * the start has: a vector of a run in {@link WriteLog#runs()}, or one read again before it is rewritten.
 */
class AddsHeldBelowTest {
    private static final int WIDTH = 2;

    /** A log over a store from add count t (epoch 1). */
    private interface Opener {
        WriteLog open(CodeParameters params, LevelStore store, LogState state);
    }

    private record Kind(String name, int slots, Opener opener) {
        WriteLog open(CodeParameters params, LevelStore store, int t) {
            return opener.open(params, store, new LogState(params.k(), t, 1));
        }
    }

    private static final Kind HIERARCHICAL = new Kind("hierarchical", 1, HierarchicalLog::new);
    private static final Kind DEAMORTIZED = new Kind("deamortized", DeamortizedLog.SLOTS, DeamortizedLog::new);

    @Test
    void hAddHoldsTheAddsSinceTheLastMultipleOfTwoToTheLevelsAndTheDeamortisedLogTwiceTwoToTheLevels() {
        CodeParameters params = new CodeParameters(10);
        WriteLog hierarchical = new HierarchicalLog(params, new MemoryLevelStore(params, WIDTH), LogState.empty(10));
        WriteLog deamortized = new DeamortizedLog(params, new MemoryLevelStore(params, WIDTH, 3), LogState.empty(10));
        SplittableRandom random = new SplittableRandom(3);
        for (int t = 0; t < 40; t++) {
            for (int m = 0; m <= 10; m++) {
                assertThat(hierarchical.addsHeldBelow(m)).as("t = %d, m = %d", t, m).isEqualTo(t % (1 << m));
                assertThat(deamortized.addsHeldBelow(m)).isEqualTo(m == 0 ? 0 : 2 << m);
            }
            int[] v = CodeVectors.random(random, WIDTH);
            hierarchical.add(v);
            deamortized.add(v);
        }
    }

    @Test
    void replayingTheLatestAddsRebuildsEveryLiveVectorOfTheLowerLevelsForBothLogs() {
        for (Kind kind : List.of(HIERARCHICAL, DEAMORTIZED)) {
            for (int k : new int[] {8, 10}) {
                for (int m = 1; m <= 4; m++) {
                    int misses = check(kind, k, m, 1, new SplittableRandom(31L * k + m));
                    assertThat(misses).as("%s, k = %d, m = %d", kind.name(), k, m).isZero();
                }
            }
        }
    }

    /**
     * HAdd needs every add it counts (t mod 2^m: those in its filled levels below m); the deamortised log needs
     * 2^(m+1) - m - 2 adds at the least (a level m-1 run is read until 3 * 2^(m-1) + d_(m-1) - 1 adds after its
     * start): more than half its count from m = 3.
     */
    @Test
    void aWindowHalfAsLongMissesALiveVectorSoTheCountsAreNeeded() {
        for (Kind kind : List.of(HIERARCHICAL, DEAMORTIZED)) {
            for (int m = 3; m <= 4; m++) {
                int misses = check(kind, 9, m, 2, new SplittableRandom(77L + m));
                assertThat(misses).as("%s, m = %d", kind.name(), m).isPositive();
            }
        }
    }

    /**
     * Runs {@code kind} over an epoch at {@code k}, and at many counts t replays the latest
     * addsHeldBelow(m) / {@code shorten} adds; returns how many live vectors of levels below m came out wrong.
     */
    private static int check(Kind kind, int k, int m, int shorten, SplittableRandom random) {
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        int[][] writes = new int[n][];
        for (int t = 0; t < n; t++) {
            writes[t] = CodeVectors.random(random, WIDTH);
        }
        Map<Long, List<int[]>> accesses = recordAccesses(kind, params, writes); // per vector: {count, 1 if read}
        Set<Integer> counts = new HashSet<>(List.of(1, 2, 3, n / 2, n / 2 + 1, n - 1));
        for (int c = 0; c < 40; c++) {
            counts.add(1 + random.nextInt(n - 1));
        }
        for (int c = 1 << m; c < n; c += 1 << m) {
            counts.add(c - 1); // around the points where the lower levels drain into level m
            counts.add(c + 1);
        }
        int misses = 0;
        for (int t : counts) {
            MemoryLevelStore reference = new MemoryLevelStore(params, WIDTH, kind.slots());
            WriteLog full = kind.open(params, reference, 0);
            for (int i = 0; i < t; i++) {
                full.add(writes[i]);
            }
            MemoryLevelStore replayed = garbage(params, kind.slots(), random);
            int from = Math.max(0, t - full.addsHeldBelow(m) / shorten);
            WriteLog window = kind.open(params, new LowerLevels(replayed, m, true), from);
            for (int i = from; i < t; i++) {
                window.add(writes[i]);
            }
            assertThat(window.state()).isEqualTo(full.state());
            for (long key : live(full, accesses, t, m)) {
                int level = (int) (key >>> 40);
                Part part = Part.values()[(int) (key >>> 32) & 1];
                int index = (int) key;
                int[] expected = new int[WIDTH];
                int[] actual = new int[WIDTH];
                reference.read(level, part, index, expected);
                replayed.read(level, part, index, actual);
                if (!Arrays.equals(expected, actual)) {
                    misses++;
                }
            }
        }
        return misses;
    }

    /** Every vector of levels below m in a run of the cover at t, or whose next access after add t is a read. */
    private static Set<Long> live(WriteLog log, Map<Long, List<int[]>> accesses, int t, int m) {
        Set<Long> live = new HashSet<>();
        for (LogRun run : log.runs()) {
            if (run.level() < m) {
                for (int i = 0; i < run.size(); i++) {
                    for (Part part : Part.values()) {
                        live.add(key(run.level(), part, run.offset() + i));
                    }
                }
            }
        }
        accesses.forEach((key, events) -> {
            if ((int) (key >>> 40) >= m) {
                return;
            }
            for (int[] e : events) {
                if (e[0] > t) {
                    if (e[1] == 1) {
                        live.add(key);
                    }
                    return;
                }
            }
        });
        return live;
    }

    /** The reads and writes of every vector over the epoch, in order, each with the count of the add doing it. */
    private static Map<Long, List<int[]>> recordAccesses(Kind kind, CodeParameters params, int[][] writes) {
        Map<Long, List<int[]>> accesses = new HashMap<>();
        MemoryLevelStore store = new MemoryLevelStore(params, WIDTH, kind.slots());
        int[] count = {0};
        LevelStore recording = new LevelStore() {
            @Override
            public int width() {
                return WIDTH;
            }

            @Override
            public void read(int level, Part part, int index, int[] into) {
                accesses.computeIfAbsent(key(level, part, index), x -> new ArrayList<>()).add(new int[] {count[0], 1});
                store.read(level, part, index, into);
            }

            @Override
            public void write(int level, Part part, int index, int[] vector) {
                accesses.computeIfAbsent(key(level, part, index), x -> new ArrayList<>()).add(new int[] {count[0], 0});
                store.write(level, part, index, vector);
            }

            @Override
            public void clear(int level) {
                store.clear(level);
            }

            @Override
            public void clear(int level, int from, int count) {
                store.clear(level, from, count);
            }
        };
        WriteLog log = kind.open(params, recording, 0);
        for (int[] write : writes) {
            count[0]++;
            log.add(write);
        }
        return accesses;
    }

    /** A store whose every vector of levels 0..k-1 holds random values: what the replay must not depend on. */
    private static MemoryLevelStore garbage(CodeParameters params, int slots, SplittableRandom random) {
        MemoryLevelStore store = new MemoryLevelStore(params, WIDTH, slots);
        for (int level = 0; level < params.k(); level++) {
            for (Part part : Part.values()) {
                for (int i = 0; i < params.partSize(level) * slots; i++) {
                    store.write(level, part, i, CodeVectors.random(random, WIDTH));
                }
            }
        }
        return store;
    }

    private static long key(int level, Part part, int index) {
        return ((long) level << 40) | ((long) part.ordinal() << 32) | (index & 0xffffffffL);
    }
}

package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.LowerLevels;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's window for a {@link DeamortizedLog} over the server's H store (its levels below m in memory only,
 * {@link SmallLevelsInMemory}, the rest in files), whose memory levels are never empty: after a crash at count t
 * (the memory lost, the files as they were), replaying the latest addsHeldBelow(m) adds into the levels in memory
 * alone ({@link LowerLevels}, as {@link MemoryLevelsOnly} does) gives a log that goes on exactly as the one that never
 * stopped. The server's own log is HAdd until DeamortizedLog is wired in; the three run slots per level are built here
 * from three stores.
 */
class DeamortizedWindowTest {
    private static final int WIDTH = 4;

    @TempDir
    Path root;

    @Test
    void replayingTheWindowAfterACrashRebuildsTheLevelsInMemoryOfADeamortisedLog() throws IOException {
        SplittableRandom random = new SplittableRandom(5);
        int k = 7;
        CodeParameters params = new CodeParameters(k);
        int[][] writes = new int[params.n()][];
        for (int i = 0; i < writes.length; i++) {
            writes[i] = random.ints(WIDTH, 0, 1 << 20).toArray();
        }
        int cases = 0;
        for (int m = 1; m <= 3; m++) {
            for (int t : new int[] {5, 13, 22, 37, 50, 64, 77, 96}) {
                Path before = root.resolve("a-" + m + "-" + t);
                Path after = root.resolve("b-" + m + "-" + t);
                try (ThreeSlots running = new ThreeSlots(before, params, m)) {
                    DeamortizedLog log = new DeamortizedLog(params, running, new LogState(k, 0, 1));
                    for (int i = 0; i < t; i++) {
                        log.add(writes[i]);
                    }
                    running.force();
                    copyFiles(before, after); // the disk at the crash; the memory is gone
                    try (ThreeSlots restarted = new ThreeSlots(after, params, m)) {
                        int from = Math.max(0, t - log.addsHeldBelow(m));
                        DeamortizedLog window = new DeamortizedLog(params, new LowerLevels(restarted, m, true),
                                new LogState(k, from, 1));
                        for (int i = from; i < t; i++) {
                            window.add(writes[i]);
                        }
                        DeamortizedLog resumed = new DeamortizedLog(params, restarted, window.state());
                        assertSameRuns(log, running, resumed, restarted, "m = " + m + ", t = " + t);
                        for (int i = t; i < params.n() - 1; i++) { // on to the epoch's end: every merge after t
                            log.add(writes[i]);
                            resumed.add(writes[i]);
                            assertSameRuns(log, running, resumed, restarted, "m = " + m + ", t = " + t + ", add " + i);
                        }
                        cases++;
                    }
                }
            }
        }
        assertThat(cases).isEqualTo(24);
    }

    private static void assertSameRuns(DeamortizedLog expected, LevelStore expectedStore, DeamortizedLog actual,
            LevelStore actualStore, String at) {
        assertThat(actual.runs()).as(at).isEqualTo(expected.runs());
        int[] a = new int[WIDTH];
        int[] b = new int[WIDTH];
        for (LogRun run : expected.runs()) {
            for (Part part : Part.values()) {
                for (int i = run.offset(); i < run.offset() + run.size(); i++) {
                    expectedStore.read(run.level(), part, i, a);
                    actualStore.read(run.level(), part, i, b);
                    assertThat(b).as("%s: level %d %s %d", at, run.level(), part, i).isEqualTo(a);
                }
            }
        }
    }

    private static void copyFiles(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    /**
     * H's store with {@link DeamortizedLog#SLOTS} runs per level: run slot s of level l is a store of its own, each
     * the server's {@link SmallLevelsInMemory} over {@link FileLevelStore} files (prefix h0, h1, h2).
     */
    private static final class ThreeSlots implements LevelStore, AutoCloseable {
        private final List<SmallLevelsInMemory> slots = new ArrayList<>();

        ThreeSlots(Path dir, CodeParameters params, int memoryLevels) throws IOException {
            Files.createDirectories(dir);
            for (int s = 0; s < DeamortizedLog.SLOTS; s++) {
                slots.add(new SmallLevelsInMemory(new FileLevelStore(dir, "h" + s, params, WIDTH), params,
                        memoryLevels));
            }
        }

        @Override
        public int width() {
            return WIDTH;
        }

        @Override
        public void read(int level, Part part, int index, int[] into) {
            slots.get(index >> level).read(level, part, index & ((1 << level) - 1), into);
        }

        @Override
        public void write(int level, Part part, int index, int[] vector) {
            slots.get(index >> level).write(level, part, index & ((1 << level) - 1), vector);
        }

        @Override
        public void clear(int level) {
            for (SmallLevelsInMemory slot : slots) {
                slot.clear(level);
            }
        }

        void force() throws IOException {
            for (SmallLevelsInMemory slot : slots) {
                slot.force();
            }
        }

        @Override
        public void close() throws IOException {
            for (SmallLevelsInMemory slot : slots) {
                slot.close();
            }
        }
    }
}

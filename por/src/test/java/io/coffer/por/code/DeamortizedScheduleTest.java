package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeamortizedScheduleTest {

    @Test
    void theScheduleListsExactlyWhatEachAddOfTheLogReadsAndWrites() {
        SplittableRandom random = new SplittableRandom(31);
        for (int k = 1; k <= 8; k++) {
            CodeParameters params = new CodeParameters(k);
            RecordingStore store = new RecordingStore(new MemoryLevelStore(params, 2, DeamortizedLog.SLOTS));
            DeamortizedLog log = new DeamortizedLog(params, store, LogState.empty(k));
            for (int count = 1; count <= params.n(); count++) {
                store.startAdd();
                log.add(CodeVectors.random(random, 2));
                assertThat(store.written).as("k = %d, add %d", k, count)
                        .containsExactlyElementsOf(positions(DeamortizedSchedule.outputs(k, count)));
                assertThat(store.readBeforeWritten).as("k = %d, add %d", k, count)
                        .containsExactlyElementsOf(positions(DeamortizedSchedule.inputs(k, count)));
                for (DeamortizedSchedule.Vector output : DeamortizedSchedule.outputs(k, count)) {
                    assertThat(output.writtenAt()).isEqualTo(count);
                }
            }
        }
    }

    /**
     * What makes redoing the adds after a journal checkpoint exact ({@code JournaledPorServer}: levels 0..m-1 in
     * memory, rebuilt from the window; a checkpoint every 2^m adds, at any offset after a clean close; the level files
     * hold whatever the adds up to the crash wrote): no redone add reads a position of a level in files that an add
     * after it and before the next checkpoint rewrites, unless the redo itself has rewritten it first.
     */
    @Test
    void noRedoneAddReadsALevelFilePositionThatALaterAddBeforeTheNextCheckpointRewrites() {
        for (int m = 1; m <= 4; m++) {
            int k = m + 5;
            int n = 1 << k;
            for (int checkpoint = 0; checkpoint < n; checkpoint++) {
                int last = Math.min(checkpoint + (1 << m), n); // the crash comes before the next checkpoint
                Set<List<Integer>> redone = new HashSet<>();
                for (int add = checkpoint + 1; add <= last; add++) {
                    for (List<Integer> read : positions(DeamortizedSchedule.inputs(k, add))) {
                        if (read.get(0) < m || redone.contains(read)) {
                            continue;
                        }
                        for (int later = add + 1; later <= last; later++) {
                            assertThat(positions(DeamortizedSchedule.outputs(k, later)))
                                    .as("m = %d, checkpoint %d: add %d reads %s, add %d rewrites it", m, checkpoint,
                                            add, read, later)
                                    .doesNotContain(read);
                        }
                    }
                    redone.addAll(positions(DeamortizedSchedule.outputs(k, add)));
                }
            }
        }
    }

    @Test
    void everyVectorOfACurrentRunWasLastWrittenAtTheCountTheScheduleGivesIt() {
        int k = 9;
        CodeParameters params = new CodeParameters(k);
        SplittableRandom random = new SplittableRandom(32);
        RecordingStore store = new RecordingStore(new MemoryLevelStore(params, 2, DeamortizedLog.SLOTS));
        DeamortizedLog log = new DeamortizedLog(params, store, LogState.empty(k));
        for (int count = 1; count <= params.n(); count++) {
            store.startAdd();
            store.count = count;
            log.add(CodeVectors.random(random, 2));
            for (LogRun run : log.runs()) {
                int r = run.start() >> run.level();
                for (int i = 0; i < run.size(); i++) {
                    DeamortizedSchedule.Vector v = new DeamortizedSchedule.Vector(run.level(), r, i);
                    assertThat(v.position()).isEqualTo(run.offset() + i);
                    assertThat(store.lastWrite.get(List.of(run.level(), v.position())))
                            .as("level %d run %d index %d after add %d", run.level(), r, i, count)
                            .isEqualTo(v.writtenAt());
                }
            }
        }
    }

    @Test
    void anAddReadsAndWritesAtMostTwoVectorsPerLevel() {
        int k = 14;
        int most = 0;
        for (int count = 1; count <= 1 << k; count++) {
            int inputs = DeamortizedSchedule.inputs(k, count).size();
            int outputs = DeamortizedSchedule.outputs(k, count).size();
            assertThat(inputs).isLessThanOrEqualTo(2 * (k - 1));
            assertThat(outputs).isLessThanOrEqualTo(1 + 2 * (k - 1));
            most = Math.max(most, inputs + outputs);
        }
        assertThat(most).isGreaterThan(2 * k); // not vacuous: the deep merges do overlap
    }

    private static List<List<Integer>> positions(List<DeamortizedSchedule.Vector> vectors) {
        List<List<Integer>> out = new ArrayList<>();
        for (DeamortizedSchedule.Vector v : vectors) {
            out.add(List.of(v.level(), v.position()));
        }
        return out;
    }

    /** Records, per add, the (level, position) vectors written and those read before this add wrote them. */
    private static final class RecordingStore extends ForwardingLevelStore {
        final Set<List<Integer>> written = new LinkedHashSet<>();
        final Set<List<Integer>> readBeforeWritten = new LinkedHashSet<>();
        final Map<List<Integer>, Integer> lastWrite = new HashMap<>();
        int count;

        RecordingStore(LevelStore inner) {
            super(inner);
        }

        void startAdd() {
            written.clear();
            readBeforeWritten.clear();
        }

        @Override
        public void read(int level, Part part, int index, int[] into) {
            List<Integer> at = List.of(level, index);
            if (!written.contains(at)) {
                readBeforeWritten.add(at);
            }
            super.read(level, part, index, into);
        }

        @Override
        public void write(int level, Part part, int index, int[] vector) {
            written.add(List.of(level, index));
            lastWrite.put(List.of(level, index), count);
            super.write(level, part, index, vector);
        }
    }
}

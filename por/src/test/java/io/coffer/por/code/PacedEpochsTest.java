package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The paced C rebuild's cycle at the code level, as a server would run it: at an epoch's end the H that ends it is
 * frozen beside the old C, a fresh H takes the next writes, the new C is built from U's copy-on-write snapshot a share
 * per add, and at the switch point the new C replaces the old and the frozen H goes.
 */
class PacedEpochsTest {
    private static final int WIDTH = 3;

    @Test
    void inTheWindowTheOldCAndBothHsGiveBackUAndAfterTheSwitchTheNewCAndTheCurrentH() {
        int k = 7;
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        SplittableRandom random = new SplittableRandom(51);
        int[][] u = CodeVectors.taggedU(random, n, WIDTH);
        MemoryLevelStore[] stores = {new MemoryLevelStore(params, WIDTH, DeamortizedLog.SLOTS),
            new MemoryLevelStore(params, WIDTH, DeamortizedLog.SLOTS)};
        int live = 0;
        DeamortizedLog log = new DeamortizedLog(params, stores[live], LogState.empty(k));
        log.rebuildC(CodeVectors.source(u));
        Recovery recovery = new Recovery(params);
        MemoryLevelStore frozen = null;
        List<LogRun> frozenRuns = null;
        PacedCRebuild rebuild = null;
        CopyOnWriteSnapshot snapshot = null;
        int[][] atSnapshot = null;
        long windowAdds = 0;
        int checksInWindow = 0;
        int switches = 0;
        for (int write = 1; write <= 4 * n + n / 2 + 5; write++) {
            int index = random.nextInt(4) == 0 ? random.nextInt(8) : random.nextInt(n);
            if (snapshot != null) {
                snapshot.beforeOverwrite(index);
            }
            u[index] = BlockTag.tag(CodeVectors.random(random, WIDTH - 1), index);
            boolean epochEnds = log.add(u[index]);
            if (rebuild != null) {
                rebuild.advanceTo(++windowAdds);
                if (rebuild.complete()) {
                    assertThat(windowAdds).isEqualTo(PacedCRebuild.stepsToComplete(k));
                    assertThat(CodeVectors.cIsTheCodeOf(params, stores[live], atSnapshot)).isTrue();
                    clearAll(frozen, params); // the switch: the old C and the frozen H go, with the copies
                    frozen = null;
                    frozenRuns = null;
                    rebuild = null;
                    snapshot = null;
                    switches++;
                }
            }
            if (epochEnds) {
                assertThat(rebuild).as("the previous window closed before the epoch ended").isNull();
                frozen = stores[live];
                frozenRuns = log.runs();
                live = 1 - live;
                clearAll(stores[live], params);
                log = new DeamortizedLog(params, stores[live], new LogState(k, 0, log.state().epoch() + 1));
                snapshot = new CopyOnWriteSnapshot(CodeVectors.source(u), WIDTH);
                atSnapshot = CodeVectors.copyOf(u);
                rebuild = new PacedCRebuild(params, snapshot, stores[live], params.cLevel());
                windowAdds = 0;
            }
            if (write % 23 == 0) {
                List<LogRun> runs = log.runs();
                Recovery.Layer current = new Recovery.Layer(runs,
                        CodeVectors.halfOfEachRunLost(stores[live], runs, random));
                List<Recovery.Layer> layers = new ArrayList<>();
                MemoryLevelStore c = stores[live];
                if (frozen != null) {
                    layers.add(new Recovery.Layer(frozenRuns, CodeVectors.halfOfEachRunLost(frozen, frozenRuns,
                            random)));
                    c = frozen;
                    checksInWindow++;
                }
                layers.add(current);
                Recovery.PartReader cReader = CodeVectors.halfOfCLost(c, params, random);
                assertThat(recovery.recover(cReader, layers)).isEqualTo(u);
                // the servers' path: in slices of a few element positions, a few blocks asked for
                List<SlicedRecovery.Layer> sliced = layers.stream()
                        .map(l -> new SlicedRecovery.Layer(l.runs(), SlicedRecovery.SliceReader.of(l.h()))).toList();
                int[] asked = {index, 0, n - 1, random.nextInt(n)};
                int[][] blocks = new SlicedRecovery(params, 0, WIDTH, 64)
                        .recover(SlicedRecovery.SliceReader.of(cReader), sliced, asked);
                for (int i = 0; i < asked.length; i++) {
                    assertThat(blocks[i]).isEqualTo(u[asked[i]]);
                }
            }
        }
        assertThat(switches).isEqualTo(4);
        assertThat(checksInWindow).isGreaterThan(4);
    }

    private static void clearAll(MemoryLevelStore store, CodeParameters params) {
        for (int level = 0; level <= params.cLevel(); level++) {
            store.clear(level);
        }
    }
}

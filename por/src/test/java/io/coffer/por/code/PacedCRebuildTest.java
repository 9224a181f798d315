package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PacedCRebuildTest {

    @Test
    void stepByStepTheRebuildGivesTheOneShotCBitForBitWhateverTheGroupSize() {
        SplittableRandom random = new SplittableRandom(41);
        for (int k = 0; k <= 9; k++) {
            CodeParameters params = new CodeParameters(k);
            int[][] u = CodeVectors.taggedU(random, params.n(), 3);
            MemoryLevelStore oneShot = new MemoryLevelStore(params, 3);
            new HierarchicalLog(params, oneShot, LogState.empty(k)).rebuildC(CodeVectors.source(u));
            for (int groupBytes : new int[] {4 * 3, 2 * 4 * 3, 16 * 4 * 3, PacedCRebuild.GROUP_BYTES}) {
                MemoryLevelStore paced = new MemoryLevelStore(params, 3);
                PacedCRebuild rebuild =
                        new PacedCRebuild(params, CodeVectors.source(u), paced, params.cLevel(), groupBytes);
                long steps = 0;
                while (!rebuild.complete()) {
                    rebuild.advanceTo(++steps);
                }
                assertThat(steps).isEqualTo(PacedCRebuild.stepsToComplete(k));
                assertThat(paced.copy(params.cLevel(), Part.X)).isEqualTo(oneShot.copy(params.cLevel(), Part.X));
                assertThat(paced.copy(params.cLevel(), Part.Y)).isEqualTo(oneShot.copy(params.cLevel(), Part.Y));
            }
        }
    }

    @Test
    void theSwitchPointIsAPureFunctionOfKWithinHalfAnEpoch() {
        for (int k = 0; k <= CodeParameters.MAX_K; k++) {
            long steps = PacedCRebuild.stepsToComplete(k);
            assertThat(steps).isLessThanOrEqualTo(PacedCRebuild.window(k));
            assertThat(PacedCRebuild.target(k, steps)).isEqualTo(PacedCRebuild.totalUnits(k));
            assertThat(PacedCRebuild.target(k, steps - 1)).isLessThan(PacedCRebuild.totalUnits(k));
            assertThat(PacedCRebuild.unitsPerStep(k)).isLessThanOrEqualTo(2L * (k + 2) + 1);
        }
    }

    @Test
    void everyWriteOfTheWindowDoesABoundedShareWhereTheOneShotRebuildTouchesAllOfC() {
        SplittableRandom random = new SplittableRandom(42);
        for (int k = 8; k <= 12; k++) {
            CodeParameters params = new CodeParameters(k);
            int n = params.n();
            int[][] u = CodeVectors.taggedU(random, n, 2);
            int[] sourceReads = new int[1];
            VectorSource counted = (i, into) -> {
                sourceReads[0]++;
                CodeVectors.source(u).read(i, into);
            };
            CountingLevelStore store = new CountingLevelStore(new MemoryLevelStore(params, 2));
            // small groups, so most passes go through the store: the worst case for store traffic per step
            PacedCRebuild rebuild = new PacedCRebuild(params, counted, store, params.cLevel(), 4 * 4 * 2);
            long share = PacedCRebuild.unitsPerStep(k);
            long worst = 0;
            for (long step = 1; !rebuild.complete(); step++) {
                store.reset();
                sourceReads[0] = 0;
                rebuild.advanceTo(step);
                // a unit is at most one vector of U read, or 2 reads and 2 writes of C (a butterfly through the store)
                assertThat(sourceReads[0]).isLessThanOrEqualTo((int) share);
                assertThat(store.reads).isLessThanOrEqualTo(2 * share);
                assertThat(store.writes).isLessThanOrEqualTo(2 * share);
                worst = Math.max(worst, store.reads + store.writes);
            }
            CountingLevelStore oneShot = new CountingLevelStore(new MemoryLevelStore(params, 2));
            new HierarchicalLog(params, oneShot, LogState.empty(k)).rebuildC(CodeVectors.source(u));
            assertThat(oneShot.writes).isGreaterThanOrEqualTo(2L * n); // the whole of C in one write today
            assertThat(worst).isGreaterThan(share); // the bound is reached, not vacuous
            assertThat(worst).isLessThanOrEqualTo(4L * (2 * (k + 2) + 1)); // O(k), not O(n)
        }
    }

    @Test
    void overwritesDuringTheWindowLeaveTheNewCThatOfTheSnapshotAndItDecodesBackToIt() {
        SplittableRandom random = new SplittableRandom(43);
        int k = 9;
        Window window = Window.open(random, k);
        CodeParameters params = window.params();
        int[][] u = window.u();
        CopyOnWriteSnapshot snapshot = window.snapshot();
        MemoryLevelStore store = window.store();
        PacedCRebuild rebuild = new PacedCRebuild(params, snapshot, store, params.cLevel(), 8 * 4 * 3);
        int overwritten = 0;
        for (long step = 1; !rebuild.complete(); step++) {
            // writes before, behind and ahead of the rebuild's read position, some twice
            int index = random.nextInt(3) == 0 ? random.nextInt(16) : random.nextInt(params.n());
            snapshot.beforeOverwrite(index);
            u[index] = BlockTag.tag(CodeVectors.random(random, 2), index);
            overwritten++;
            rebuild.advanceTo(step);
        }
        assertThat(snapshot.asideCount()).isBetween(1, overwritten);
        assertThat(snapshot.asideCount()).isLessThanOrEqualTo(PacedCRebuild.window(k));
        assertThat(CodeVectors.cIsTheCodeOf(params, store, window.atSnapshot())).isTrue();
        int[][] decoded = new Recovery(params).recover(LogState.empty(k), CodeVectors.halfOfCLost(store, params,
                random));
        assertThat(decoded).isEqualTo(window.atSnapshot());
    }

    @Test
    void aRebuildRestartedFromItsBeginningAfterACrashStillEncodesTheSnapshot() {
        SplittableRandom random = new SplittableRandom(44);
        int k = 8;
        Window window = Window.open(random, k);
        CodeParameters params = window.params();
        int[][] u = window.u();
        CopyOnWriteSnapshot snapshot = window.snapshot();
        MemoryLevelStore store = window.store();
        PacedCRebuild first = new PacedCRebuild(params, snapshot, store, params.cLevel(), 4 * 4 * 3);
        long crashAt = PacedCRebuild.stepsToComplete(k) * 2 / 3;
        for (long step = 1; step <= crashAt; step++) {
            first.advanceTo(step);
        }
        int consumed = first.readThrough();
        assertThat(consumed).isPositive();
        // indices the first attempt had read are overwritten after it read them: the restart must not see the change
        for (int index = 0; index < consumed; index += 3) {
            snapshot.beforeOverwrite(index);
            u[index] = BlockTag.tag(CodeVectors.random(random, 2), index);
        }
        PacedCRebuild again = new PacedCRebuild(params, snapshot, store, params.cLevel(), 4 * 4 * 3);
        again.finish();
        assertThat(CodeVectors.cIsTheCodeOf(params, store, window.atSnapshot())).isTrue();
    }

    @Test
    void aRebuildFedThePostSnapshotBytesEncodesAnotherU() {
        SplittableRandom random = new SplittableRandom(45);
        int k = 7;
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        int[][] u = CodeVectors.taggedU(random, n, 3);
        int[][] atSnapshot = CodeVectors.copyOf(u);
        MemoryLevelStore store = new MemoryLevelStore(params, 3);
        // no copy-on-write: the rebuild reads U as it is when it gets there
        PacedCRebuild rebuild = new PacedCRebuild(params, CodeVectors.source(u), store, params.cLevel());
        rebuild.advanceTo(1);
        int ahead = n - 1;
        assertThat(rebuild.readThrough()).isLessThanOrEqualTo(ahead);
        u[ahead] = BlockTag.tag(CodeVectors.random(random, 2), ahead);
        rebuild.finish();
        int[][] decoded = new Recovery(params).recover(LogState.empty(k), CodeVectors.halfOfCLost(store, params,
                random));
        assertThat(decoded[ahead]).isNotEqualTo(atSnapshot[ahead]);
        assertThat(decoded).isEqualTo(u);
    }

    @Test
    void theClientsPacedSimulationOverChecksumsMatchesTheServersCUnlessACopyOnWriteCopyWasLost() {
        // sigma = M * B commutes with the rebuild (section 5.4), paced or not: a client may pace its simulation too,
        // and a server that lost a copy (or read a block's post-snapshot bytes) holds a C its checksums do not match
        SplittableRandom random = new SplittableRandom(47);
        int k = 7;
        CodeParameters params = new CodeParameters(k);
        int width = 12;
        int rho = 5;
        int[][] m = new int[rho][];
        for (int r = 0; r < rho; r++) {
            m[r] = CodeVectors.random(random, width);
        }
        int[][] u = CodeVectors.taggedU(random, params.n(), width);
        int[][] sums = new int[u.length][];
        for (int i = 0; i < u.length; i++) {
            sums[i] = HierarchicalLogTest.checksum(m, u[i]);
        }
        CopyOnWriteSnapshot snapshot = new CopyOnWriteSnapshot(CodeVectors.source(u), width);
        VectorSource losesCopies = CodeVectors.source(u); // U as it is: every overwritten block's copy lost
        MemoryLevelStore honest = new MemoryLevelStore(params, width);
        MemoryLevelStore careless = new MemoryLevelStore(params, width);
        MemoryLevelStore simulated = new MemoryLevelStore(params, rho);
        PacedCRebuild server = new PacedCRebuild(params, snapshot, honest, params.cLevel());
        PacedCRebuild lossy = new PacedCRebuild(params, losesCopies, careless, params.cLevel());
        PacedCRebuild client = new PacedCRebuild(params, CodeVectors.source(sums), simulated, params.cLevel());
        for (long step = 1; !server.complete(); step++) {
            int index = random.nextInt(params.n());
            snapshot.beforeOverwrite(index);
            u[index] = BlockTag.tag(CodeVectors.random(random, width - 1), index);
            server.advanceTo(step);
            lossy.advanceTo(step);
            client.advanceTo(step);
        }
        int mismatches = 0;
        for (Part part : Part.values()) {
            int[][] coded = honest.copy(params.cLevel(), part);
            int[][] codedCarelessly = careless.copy(params.cLevel(), part);
            int[][] expected = simulated.copy(params.cLevel(), part);
            for (int j = 0; j < params.n(); j++) {
                assertThat(HierarchicalLogTest.checksum(m, coded[j])).isEqualTo(expected[j]);
                if (!Arrays.equals(HierarchicalLogTest.checksum(m, codedCarelessly[j]), expected[j])) {
                    mismatches++;
                }
            }
        }
        // a block overwritten ahead of the rebuild changes every vector of C it is mixed into: all of them
        assertThat(mismatches).isEqualTo(2 * params.n());
    }

    @Test
    void readThroughCountsTheIndicesLoadedSoFarInOrder() {
        CodeParameters params = new CodeParameters(6);
        int[][] u = CodeVectors.taggedU(new SplittableRandom(46), params.n(), 2);
        int[] next = new int[1];
        VectorSource inOrder = (i, into) -> {
            assertThat(i).isEqualTo(next[0]);
            next[0]++;
            CodeVectors.source(u).read(i, into);
        };
        PacedCRebuild rebuild = new PacedCRebuild(params, inOrder, new MemoryLevelStore(params, 2), params.cLevel(),
                4 * 4 * 2);
        for (long step = 1; !rebuild.complete(); step++) {
            rebuild.advanceTo(step);
            assertThat(rebuild.readThrough()).isEqualTo(next[0]);
        }
        assertThat(rebuild.readThrough()).isEqualTo(params.n());
    }

    /** U (changed by the test), U at the snapshot, its copy-on-write snapshot and the store the new C goes to. */
    private record Window(CodeParameters params, int[][] u, int[][] atSnapshot, CopyOnWriteSnapshot snapshot,
            MemoryLevelStore store) {
        static Window open(SplittableRandom random, int k) {
            CodeParameters params = new CodeParameters(k);
            int[][] u = CodeVectors.taggedU(random, params.n(), 3);
            return new Window(params, u, CodeVectors.copyOf(u), new CopyOnWriteSnapshot(CodeVectors.source(u), 3),
                    new MemoryLevelStore(params, 3));
        }
    }
}

package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.store.ServerStorage;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A paced C rebuild's window through the client and the in-process server: the client audits the old C and the frozen
 * H until the switch point it computes itself, the new C after; reads and repairs decode through the old C, the frozen
 * runs and the current runs. A server that drops or swaps what the window needs is caught.
 */
class PacedWindowTest {
    private static final int BLOCK = 24;

    @Test
    void anHonestServerPassesEveryAuditOverManyEpochsOfWritesDeletesReadsAndRepairsInWindows() {
        for (int b : new int[] {0, 2, 7}) { // 7: one add is the whole epoch, its switch at that add
            int k = 7;
            MemoryPorServer server = new MemoryPorServer(k, b, BLOCK);
            List<ClientState> persisted = new ArrayList<>();
            PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                    persisted::add);
            byte[][] expected = new byte[1 << k][BLOCK];
            SplittableRandom random = new SplittableRandom(b + 11);
            int inWindow = 0;
            int repaired = 0;
            for (int op = 1; op <= 6 << k; op++) {
                int index = random.nextInt(4) == 0 ? random.nextInt(8) : random.nextInt(1 << k);
                byte[] block = new byte[BLOCK];
                if (random.nextInt(8) != 0) { // else a delete: the zero block
                    random.nextBytes(block);
                }
                client.write(index, block);
                expected[index] = block;
                if (ClientAudit.beforeSwitch(client.state())) {
                    inWindow++;
                }
                if (op % 19 == 0) {
                    AuditVerdict verdict = client.audit();
                    assertThat(verdict.passed()).as("b = %d, audit after %d writes: %s", b, op, verdict.reason())
                            .isTrue();
                }
                if (op % 23 == 0) { // a disk loses a block; the repair decodes it through the window's layers
                    int lost = index; // written, so its loss shows
                    client.flush(); // a pending batch's blocks are in U only
                    server.storage().setU(lost, null);
                    assertThatThrownBy(() -> client.read(lost)).isInstanceOf(RuntimeException.class);
                    client.repair(List.of(lost));
                    repaired++;
                }
                int probe = random.nextInt(1 << k);
                assertThat(client.read(probe)).isEqualTo(expected[probe]);
            }
            assertThat(inWindow).as("writes inside a window").isGreaterThan(4 << k >> 1);
            assertThat(repaired).isGreaterThan(20);
            assertThat(persisted.stream().anyMatch(ClientState::window)).isTrue();
            for (int i = 0; i < 1 << k; i++) {
                assertThat(client.read(i)).isEqualTo(expected[i]);
            }
        }
    }

    @Test
    void theWindowsFlagSurvivesThePersistedStateAndAResyncEndsTheWindow() {
        int k = 6;
        MemoryPorServer server = new MemoryPorServer(k, 0, BLOCK);
        List<ClientState> persisted = new ArrayList<>();
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        assertThat(client.state().window()).as("an initialisation starts no window").isFalse();
        fill(client, 1 << k, 5);
        assertThat(client.state().window()).isTrue();
        assertThat(client.state().clientPartPending()).isTrue(); // the epoch's end was its write, the part to come
        ClientState reopened = ClientState.fromBytes(client.state().toBytes());
        assertThat(reopened).isEqualTo(client.state());
        PorClient again = new PorClient(server, reopened, new SecureRandom(), persisted::add);
        assertThat(again.audit().passed()).isTrue();
        again.resync();
        assertThat(again.state().window()).as("a resync rebuilds C in full").isFalse();
        assertThat(again.state().clientPartPending()).as("and takes its checksums: no part is owed").isFalse();
        assertThat(server.windowProgress()).isNull();
        assertThat(again.audit().passed()).isTrue();
    }

    @Test
    void aGrowInTheWindowEndsItWithAFullRebuild() {
        MemoryPorServer server = new MemoryPorServer(6, 0, BLOCK, 8);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        fill(client, 1 << 6, 6);
        assertThat(ClientAudit.beforeSwitch(client.state())).isTrue();
        assertThat(client.state().clientPartPending()).isTrue();
        client.grow(7);
        assertThat(client.state().window()).isFalse();
        assertThat(client.state().clientPartPending()).isFalse();
        assertThat(client.audit().passed()).isTrue();
        fill(client, (1 << 7) + 3, 7);
        assertThat(client.state().window()).isTrue();
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void aShrinkInTheWindowEndsItWithAFullRebuild() {
        int k = 7;
        MemoryPorServer server = new MemoryPorServer(k, 0, BLOCK);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(21);
        byte[][] expected = new byte[1 << (k - 1)][BLOCK];
        for (int i = 0; i < (1 << k) + 5; i++) { // only the lower half in use: the store may shrink
            int index = random.nextInt(1 << (k - 1));
            random.nextBytes(expected[index]);
            client.write(index, expected[index].clone());
        }
        assertThat(ClientAudit.beforeSwitch(client.state())).isTrue();
        client.shrink(k - 1);
        assertThat(client.state().window()).isFalse();
        assertThat(client.state().clientPartPending()).isFalse();
        assertThat(server.windowProgress()).isNull();
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < 1 << (k - 1); i++) {
            assertThat(client.read(i)).isEqualTo(expected[i]);
        }
    }

    @Test
    void aServerThatDropsTheOldCInTheWindowFailsTheNextAudit() {
        Window w = new Window(7);
        MemoryLevelStore c = w.server.storage().cVectors();
        int cLevel = new CodeParameters(7).cLevel();
        for (int i = 0; i < 1 << 7; i++) {
            c.erase(cLevel, Part.X, i);
        }
        assertThat(w.client.audit().passed()).isFalse();
    }

    @Test
    void aServerThatDropsTheFrozenHInTheWindowFailsTheNextAudit() {
        Window w = new Window(7);
        ServerStorage storage = w.server.storage();
        MemoryLevelStore frozen = storage.frozenHVectors();
        for (int level = 0; level <= 7; level++) {
            for (int i = 0; i < 3 << level; i++) {
                frozen.erase(level, Part.X, i);
                frozen.erase(level, Part.Y, i);
            }
        }
        AuditVerdict verdict = w.client.audit();
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.reason()).contains("could not answer");
    }

    @Test
    void aServerThatSwitchesEarlyFailsTheNextAudit() {
        Window w = new Window(7);
        ServerStorage storage = w.server.storage();
        // the next C half built: its vectors are not the code the client's sealed checksums describe
        storage.switchC();
        assertThat(w.client.audit().passed()).isFalse();
    }

    @Test
    void aServerThatBuildsTheNewCFromTheOverwrittenUIsCaughtAfterTheSwitch() {
        int k = 7;
        Window w = new Window(k);
        long steps = PacedCRebuild.stepsToComplete(k);
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < steps; i++) { // overwrites in the window, up to the switch
            byte[] block = new byte[BLOCK];
            random.nextBytes(block);
            w.client.write(i % 16, block);
        }
        assertThat(w.server.windowProgress()).isNull();
        assertThat(w.client.audit().passed()).isTrue();
        // without the copies: C re-encoded from U as it is now, not as it was at the epoch's end
        ServerStorage storage = w.server.storage();
        HierarchicalLog log = new HierarchicalLog(new CodeParameters(k), storage.cVectors(), new LogState(k, 0, 1));
        log.rebuildC((i, into) -> {
            int[] tagged = BlockTag.ofBlock(storage.u(i) == null ? new byte[BLOCK] : storage.u(i), i);
            System.arraycopy(tagged, 0, into, 0, tagged.length);
        });
        assertThat(w.client.audit().passed()).isFalse();
    }

    @Test
    void aBlockLostInTheWindowBeforeTheRebuildReadsItStillReachesTheNewC() {
        int k = 7;
        Window w = new Window(k);
        int lost = (1 << k) - 1; // read last by the rebuild
        byte[] before = w.client.read(lost);
        w.server.storage().setU(lost, null);
        byte[] block = new byte[BLOCK];
        for (int i = 0; i < PacedCRebuild.stepsToComplete(k); i++) {
            w.client.write(i % 8, block);
        }
        assertThat(w.server.windowProgress()).isNull();
        assertThat(w.client.audit().passed()).isTrue();
        w.client.repair(List.of(lost));
        assertThat(w.client.read(lost)).isEqualTo(before);
    }

    /** A client and an honest server just past an epoch's end: the window open, a few writes in. */
    private static final class Window {
        final MemoryPorServer server;
        final PorClient client;

        Window(int k) {
            server = new MemoryPorServer(k, 0, BLOCK);
            client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
            fill(client, (1 << k) + 3, 13);
            assertThat(ClientAudit.beforeSwitch(client.state())).isTrue();
            assertThat(client.audit().passed()).isTrue();
        }
    }

    private static void fill(PorClient client, int writes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 1 << client.state().k();
        for (int i = 0; i < writes; i++) {
            byte[] block = new byte[BLOCK];
            random.nextBytes(block);
            client.write(random.nextInt(n), block);
        }
    }
}

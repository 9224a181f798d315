package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paced C rebuild in files (PacedWindowFiles) killed at each of its steps: the freeze, a copy of U before and
 * after its force, mid-rebuild, the switch and after it. After each reopen every block reads back byte-exact and the
 * audits pass in the window (old C, frozen H, current H) and after the switch, and a further epoch runs.
 */
class JournaledPacedWindowTest {
    private static final int BLOCK = 24;
    private static final int K = 4;
    /** The add of the window at which the rebuild is complete (b = 0: one write per add). */
    private static final int SWITCH = (int) PacedCRebuild.stepsToComplete(K);
    private static final ServerParameters PARAMS = new ServerParameters(K, 0, BLOCK);

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(29, BLOCK, 2);
    private final byte[][] expected = new byte[1 << K][];

    @Test
    void aFreezeKilledAfterItsRecordIsCompletedAtOpen() throws IOException {
        killedAfterTheEpochsEnd();
        PacedWindowSteps.freezeCutAfterItsRecord(dir, 2);
        assertReopensInTheWindowAndGoesOn(0);
    }

    @Test
    void aFreezeKilledBeforeItsRecordIsRedoneFromTheJournal() throws IOException {
        killedAfterTheEpochsEnd();
        PacedWindowSteps.freezeCutBeforeItsRecord(dir);
        assertReopensInTheWindowAndGoesOn(0);
    }

    @Test
    void aCopyKilledAfterItsForceServesTheRebuildAfterTheRestart() throws IOException {
        JournaledPorServer server = windowWithAnUnflushedFirstChange();
        server.haltAsKilled();
        assertReopensInTheWindowAndGoesOn(3);
    }

    @Test
    void aCopyCutShortByTheKillIsTakenAgainFromUsFilesWhichItsWriteNeverReached() throws IOException {
        JournaledPorServer server = windowWithAnUnflushedFirstChange();
        server.haltAsKilled();
        Path copies = dir.resolve(PacedWindowFiles.COPIES);
        try (FileChannel c = FileChannel.open(copies, StandardOpenOption.WRITE)) {
            c.truncate(c.size() - 1); // the last copy torn: the block it kept reached no file
        }
        assertReopensInTheWindowAndGoesOn(3);
    }

    @Test
    void aKillMidRebuildRestartsItFromUnitZeroOverTheCopies() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, 1 << K);
        clients.writeRandom(client, expected, SWITCH - 1);
        client.flush();
        assertThat(server.storage().windowEpoch()).isEqualTo(2);
        server.haltAsKilled();
        for (Path p : named("cn-")) {
            clients.garble(p); // the next C half-written: rewritten from unit 0
        }
        assertReopensInTheWindowAndGoesOn(SWITCH - 1);
    }

    @Test
    void aSwitchKilledMidRenameIsCompletedAtOpen() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, (1 << K) + SWITCH);
        assertThat(server.storage().windowEpoch()).isEqualTo(-1);
        server.haltAsKilled();
        // as the switch leaves its files after renaming part X of the next C only
        Files.move(dir.resolve("c-5-y.vectors"), dir.resolve("cn-5-y.vectors"));
        Files.move(dir.resolve("c.sealed"), dir.resolve(PacedWindowFiles.NEXT_SEALED));
        PacedWindowFiles.write(dir, 2, PacedWindowFiles.SWITCHING);
        assertReopensAfterTheSwitch();
    }

    @Test
    void aKillAfterTheSwitchReopensOverTheNewC() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, (1 << K) + SWITCH);
        server.haltAsKilled();
        // only the frozen H's vectors left to be cut a share at a time (deleted at the open)
        assertThat(named("hf-")).allMatch(p -> PacedWindowFiles.retired(p.getFileName().toString()));
        assertThat(named("cn-")).isEmpty();
        assertReopensAfterTheSwitch();
    }

    @Test
    void theFormerWindowsFilesAreCutAShareAtATimeAfterTheSwitchAndDeletedAtOpenAfterAKill() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, (1 << K) + SWITCH);
        assertThat(server.storage().windowEpoch()).isEqualTo(-1);
        List<Path> retired = PacedWindowFiles.retiredFiles(dir);
        assertThat(retired).isNotEmpty().anyMatch(p -> p.getFileName().toString().startsWith("co-"))
                .anyMatch(p -> p.getFileName().toString().startsWith("hf-"));
        long before = sizes(retired);
        clients.writeRandom(client, expected, 1);
        client.flush();
        assertThat(sizes(PacedWindowFiles.retiredFiles(dir))).isLessThan(before); // one share cut
        server.haltAsKilled();
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null)) {
            assertThat(PacedWindowFiles.retiredFiles(dir)).isEmpty(); // nothing reads them: deleted at open
            PorClient resumed = clients.resume(reopened);
            clients.assertContent(resumed, expected);
            clients.assertGoesOn(resumed, expected, (1 << K) - SWITCH - 1); // to the epoch's end: a new window
            assertThat(reopened.storage().windowEpoch()).isEqualTo(3);
            assertThat(named("co-")).isEmpty(); // the hf- files now are the new window's frozen H
            clients.assertGoesOn(resumed, expected, SWITCH + 1); // its switch and a share after it
            assertThat(named("co-")).isNotEmpty().allMatch(p -> PacedWindowFiles.retired(p.getFileName().toString()));
        }
    }

    @Test
    void aRetiredFileThatCannotBeCutFailsNoWriteAndTheNextFreezeDeletesTheRest() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, (1 << K) + SWITCH);
            List<Path> retired = PacedWindowFiles.retiredFiles(dir);
            assertThat(retired).hasSizeGreaterThan(1);
            Files.delete(retired.get(0)); // the first file the shares cut: the cut fails
            clients.writeRandom(client, expected, (1 << K) - SWITCH - 1); // every share after it: no write fails
            client.flush();
            assertThat(PacedWindowFiles.retiredFiles(dir)).isNotEmpty(); // given up: left to the freeze
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 1); // the epoch's end: the freeze deletes them
            assertThat(named("co-")).isEmpty();
            clients.assertContent(client, expected);
        }
    }

    @Test
    void aCleanCloseInsideTheWindowReopensInIt() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, (1 << K) + 2);
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
        }
        assertReopensInTheWindowAndGoesOn(2);
    }

    @Test
    void aKillWithABatchPendingInTheWindowRedoesItsWritesOverTheResumedWindow() throws IOException {
        ServerParameters batched = new ServerParameters(6, 2, BLOCK);
        byte[][] all = new byte[1 << 6][];
        JournaledPorServer killed = JournaledPorServer.open(dir, batched);
        PorClient writer = clients.initialize(killed);
        clients.writeRandom(writer, all, (1 << 6) + 4 * 3 + 2); // three adds of the window, two blocks pending
        assertThat(killed.storage().windowEpoch()).isEqualTo(2);
        killed.haltAsKilled();
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(new LogState(4, 3, 2));
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            PorClient client = clients.resume(server);
            clients.assertContent(client, all);
            // the switch at the add that completes stepsToComplete(6) blocks of the window
            clients.assertGoesOn(client, all, (int) PacedCRebuild.stepsToComplete(6) - (4 * 3 + 2));
            assertThat(server.state()).isEqualTo(new LogState(4, (int) PacedCRebuild.stepsToComplete(6) / 4, 2));
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
        }
    }

    @Test
    void blocksLostInTheWindowAreRepairedThroughTheOldCAndBothHsAndReachTheNextC() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            PorClient client = clients.initialize(server);
            for (int i = 0; i < 1 << K; i++) {
                write(client, i);
            }
            write(client, 2);
            write(client, 7);
            server.storage().setU(2, null); // changed in the window: decoded through the current H
            server.storage().setU(11, null); // unchanged: through the old C and the frozen H
            client.repair(List.of(2, 11));
            clients.assertContent(client, expected);
            server.storage().setU(12, null); // lost when the rebuild reads it: decoded for the next C
            for (int i = 2; i < SWITCH; i++) {
                write(client, 0);
            }
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
            client.repair(List.of(12));
            clients.assertGoesOn(client, expected, 1 << K);
        }
    }

    /** The epoch's last write with the journal as a kill right after the REBUILD_C record leaves it. */
    private void killedAfterTheEpochsEnd() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, (1 << K) - 1);
        CrashAfterJournal crash = new CrashAfterJournal(server, dir, PARAMS, MessageType.REBUILD_C);
        clients.writeRandom(clients.resume(crash.proxy()), expected, 1);
        assertThat(server.storage().windowEpoch()).isEqualTo(2);
        server.haltAsKilled();
        crash.rewindJournal();
    }

    /** In the window: two first changes flushed (their copies forced), a third journaled and copied, not flushed. */
    private JournaledPorServer windowWithAnUnflushedFirstChange() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        for (int i = 0; i < 1 << K; i++) { // every index written: each change in the window replaces a block
            write(client, i);
        }
        write(client, 3);
        write(client, 5);
        client.flush();
        write(client, 9);
        assertThat(server.storage().copies().size()).isEqualTo(3);
        return server;
    }

    private void write(PorClient client, int index) {
        byte[] block = new byte[BLOCK];
        clients.nextBytes(block);
        client.write(index, block);
        expected[index] = block;
    }

    private void assertReopensInTheWindowAndGoesOn(int adds) throws IOException {
        PacedWindowSteps.assertReopensInTheWindowAndGoesOn(() -> JournaledPorServer.open(dir, null), clients, expected,
                K, adds, SWITCH);
    }

    private void assertReopensAfterTheSwitch() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(new LogState(K, SWITCH, 2));
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
            assertThat(Files.exists(dir.resolve(PacedWindowFiles.RECORD))).isFalse();
            assertThat(named("hf-")).isEmpty();
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.assertGoesOn(client, expected, 1 << K);
        }
    }

    private static long sizes(List<Path> files) throws IOException {
        long bytes = 0;
        for (Path p : files) {
            bytes += Files.size(p);
        }
        return bytes;
    }

    private List<Path> named(String prefix) throws IOException {
        return PacedWindowSteps.named(dir, prefix);
    }
}

package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's part of C's rebuild paced by the durable server ({@link DirectoryStorage} as a
 * {@link io.coffer.por.store.ClientPartStorage}): the epoch's end journals REBUILD_C_PACED and freezes with
 * {@code c.next.sealed} empty, the client uploads it a part at a time, and kills cut each step: between a part's
 * write and its answer, a torn part, REBUILD_C_PACED journaled before and after the freeze, a reopen in the window,
 * a copy record torn. After each reopen the window takes the client's part again, serves the same snapshot with the
 * same empty positions, every block reads back byte-exact and audits pass in the window, after the switch and over a
 * further epoch.
 */
class JournaledClientPartTest {
    private static final int BLOCK = 24;
    private static final int K = 4;
    private static final int N = 1 << K;
    /** The add of the window that switches (b = 0: one write per add). */
    private static final int SWITCH = PacedCRebuild.addsToSwitch(K, 0);
    private static final ServerParameters PARAMS = new ServerParameters(K, 0, BLOCK);

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(43, BLOCK, 2);
    private final byte[][] expected = new byte[N][];
    /** The server a test opened with {@link #opened}, and how its client reaches it (across a kill and a reopen). */
    private JournaledPorServer server;
    private ClientPartFiles reach;

    @Test
    void theEpochsEndFreezesWithEveryPositionEmptyAndTheWindowFillsThemBeforeItsSwitch() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            assertThat(server.pacesClientPart()).isTrue();
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, N);
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            assertThat(PacedWindowFiles.read(dir).clientPart()).isTrue();
            assertThat(client.state().clientPartPending()).isTrue();
            assertThat(Files.size(dir.resolve(PacedWindowFiles.NEXT_SEALED))).isEqualTo(2L * N * ClientPartFiles.SEALED);
            assertThat(ClientPartFiles.allZero(ClientPartFiles.nextSealed(dir, N, 0, 0, N))).isTrue();
            assertThat(ClientPartFiles.allZero(ClientPartFiles.nextSealed(dir, N, 1, 0, N))).isTrue();
            assertThat(server.storage().nextSealedMissing()).isEqualTo(N);
            int missing = N;
            while (server.storage().windowEpoch() == 2) {
                clients.writeRandom(client, expected, 1);
                if (server.storage().windowEpoch() == 2) {
                    assertThat(server.storage().nextSealedMissing()).isLessThanOrEqualTo(missing);
                    missing = server.storage().nextSealedMissing();
                }
            }
            assertThat(server.state()).isEqualTo(new LogState(K, SWITCH, 2));
            assertThat(client.state().clientPartPending()).isFalse();
            assertThat(Files.exists(dir.resolve(PacedWindowFiles.NEXT_SEALED))).isFalse();
            clients.assertContent(client, expected); // the switched C audited
            clients.writeRandom(client, expected, N - SWITCH); // the next epoch's end: a window of the client's part
            assertThat(server.storage().windowEpoch()).isEqualTo(3);
            assertThat(PacedWindowFiles.read(dir).clientPart()).isTrue();
            assertThat(server.storage().nextSealedMissing()).isEqualTo(N);
            clients.assertGoesOn(client, expected, N);
        }
    }

    @Test
    void aPartKilledBetweenItsWriteAndItsAnswerIsSentAgainAndTheWindowGoesOn() throws IOException {
        PorClient client = opened(N);
        clients.writeRandom(client, expected, 1); // the part's first call: something in before the kill
        int[] missingAtKill = new int[1];
        AtomicReference<LogState> at = new AtomicReference<>();
        reach.killAfterTheNextPart(range -> {
            missingAtKill[0] = server.storage().nextSealedMissing();
            at.set(server.state());
            halt(server);
        });
        writeUntilKilled(client, missingAtKill);
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null)) {
            assertThat(reopened.state()).isEqualTo(at.get());
            assertThat(reopened.storage().windowEpoch()).isEqualTo(2);
            assertThat(reopened.storage().nextSealedMissing()).isEqualTo(missingAtKill[0]); // forced before the answer
            reach.target = reopened;
            goesOnThroughTheSwitch(reopened, client);
        }
        assertReopensWithTheContent();
    }

    @Test
    void aTornPartLeavesItsPositionsEmptyAndTheClientsResendFillsThem() throws IOException {
        PorClient client = opened(N + 1);
        AtomicReference<int[]> part = new AtomicReference<>();
        int[] missingAtKill = new int[1];
        reach.killAfterTheNextPart(range -> {
            part.set(range);
            missingAtKill[0] = server.storage().nextSealedMissing();
            halt(server);
        });
        writeUntilKilled(client, missingAtKill);
        int from = part.get()[0];
        int count = part.get()[1];
        // torn: the part's X records half garbage, its Y records never written
        byte[][] garbage = new byte[count][ClientPartFiles.SEALED];
        for (int i = 0; i < count / 2; i++) {
            clients.nextBytes(garbage[i]);
        }
        ClientPartFiles.overwriteNextSealed(dir, N, 0, from, garbage);
        ClientPartFiles.overwriteNextSealed(dir, N, 1, from, new byte[count][ClientPartFiles.SEALED]);
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null)) {
            assertThat(reopened.storage().nextSealedMissing()).isEqualTo(missingAtKill[0] + count);
            reach.target = reopened;
            goesOnThroughTheSwitch(reopened, client);
        }
        assertReopensWithTheContent();
    }

    @Test
    void aKillRightAfterRebuildCPacedIsJournaledRedoesTheFreezeForTheClient() throws IOException {
        killedAfterRebuildCPacedWasJournaled();
        PacedWindowSteps.freezeCutBeforeItsRecord(dir);
        Files.write(dir.resolve(PacedWindowFiles.NEXT_SEALED), new byte[7]); // a former attempt's: made again
        assertThat(Files.exists(dir.resolve(PacedWindowFiles.RECORD))).isFalse();
        reopensInTheClientsWindowAndGoesOn();
    }

    @Test
    void aKillInTheFreezeAfterItsRecordIsCompletedAndTakesTheClientsPart() throws IOException {
        killedAfterRebuildCPacedWasJournaled();
        PacedWindowSteps.freezeCutAfterItsRecord(dir, 2);
        reopensInTheClientsWindowAndGoesOn();
    }

    @Test
    void aKillRightAfterTheFreezeReopensInTheClientsWindow() throws IOException {
        killedAfterRebuildCPacedWasJournaled();
        reopensInTheClientsWindowAndGoesOn();
    }

    @Test
    void aReopenInTheWindowServesTheSameSnapshotWithTheSameEmptyPositions() throws IOException {
        PorClient client = opened(N - 1);
        int never = neverWritten();
        clients.writeRandom(client, expected, 1); // the epoch's end
        List<byte[]> atTheEnd = ClientPartFiles.snapshot(server, N);
        write(client, 3);
        write(client, 3); // twice: the snapshot keeps the epoch's end
        if (never >= 0) {
            write(client, never); // never written before: none in the snapshot
        }
        client.flush();
        write(client, 5);
        while (server.storage().nextSealedMissing() == N) { // until a part is in
            write(client, 5);
        }
        assertThat(server.storage().windowEpoch()).isEqualTo(2);
        assertSameChecksums(ClientPartFiles.snapshot(server, N), atTheEnd);
        int missing = server.storage().nextSealedMissing();
        server.haltAsKilled();
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null)) {
            assertThat(reopened.storage().windowEpoch()).isEqualTo(2);
            assertThat(reopened.storage().windowTakesClientPart()).isTrue();
            assertSameChecksums(ClientPartFiles.snapshot(reopened, N), atTheEnd);
            if (never >= 0) {
                assertThat(ClientPartFiles.snapshot(reopened, N).get(never)).isNull();
            }
            assertThat(reopened.storage().nextSealedMissing()).isEqualTo(missing);
            reach.target = reopened;
            goesOnThroughTheSwitch(reopened, client); // the client's root check passes over the reopened snapshot
        }
        assertReopensWithTheContent();
    }

    @Test
    void aCopyRecordTornByTheKillIsTakenAgainWithTheSameSealedChecksum() throws IOException {
        PorClient client = opened(N);
        List<byte[]> atTheEnd = ClientPartFiles.snapshot(server, N);
        write(client, 2);
        client.flush();
        write(client, 7); // its copy appended, not forced; its write never reaches U's files
        Path copies = dir.resolve(PacedWindowFiles.COPIES);
        long whole = Files.size(copies);
        server.haltAsKilled();
        byte[] bytes = Files.readAllBytes(copies);
        int record = (int) whole / 2; // the copies of 2 and 7
        Files.write(copies, Arrays.copyOf(bytes, (int) whole - record / 2)); // the last record torn
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(copies)).isEqualTo(whole); // taken again by the journal's write
            assertSameChecksums(ClientPartFiles.snapshot(reopened, N), atTheEnd);
            reach.target = reopened;
            goesOnThroughTheSwitch(reopened, client);
        }
        assertReopensWithTheContent();
    }

    /** The server opened in the directory, a client reaching it through {@link #reach}, {@code writes} made. */
    private PorClient opened(int writes) throws IOException {
        server = JournaledPorServer.open(dir, PARAMS);
        reach = new ClientPartFiles(server);
        PorClient client = clients.initialize(reach.proxy());
        clients.writeRandom(client, expected, writes);
        return client;
    }

    /** The epoch's last write with the journal as a kill right after the REBUILD_C_PACED record leaves it. */
    private void killedAfterRebuildCPacedWasJournaled() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, N - 1);
        CrashAfterJournal crash = new CrashAfterJournal(server, dir, PARAMS, MessageType.REBUILD_C_PACED);
        clients.writeRandom(clients.resume(crash.proxy()), expected, 1);
        assertThat(server.storage().windowTakesClientPart()).isTrue();
        server.haltAsKilled();
        crash.rewindJournal();
    }

    /** Reopened at the window's start, which takes the client's part; the client restarted from its state. */
    private void reopensInTheClientsWindowAndGoesOn() throws IOException {
        PacedWindowSteps.assertReopensInTheWindowAndGoesOn(() -> {
            JournaledPorServer reopened = JournaledPorServer.open(dir, null);
            if (reopened.storage().windowEpoch() == 2) {
                assertThat(reopened.storage().windowTakesClientPart()).isTrue();
                assertThat(reopened.storage().nextSealedMissing()).isEqualTo(N);
            }
            return reopened;
        }, clients, expected, K, 0, SWITCH);
    }

    /** Writes until the kill the test set up comes: the write it cuts fails, and nothing of it is kept. */
    private void writeUntilKilled(PorClient client, int[] killed) {
        killed[0] = -1;
        while (killed[0] < 0) {
            int index = clientsIndex();
            byte[] block = new byte[BLOCK];
            clients.nextBytes(block);
            try {
                client.write(index, block);
                expected[index] = block;
            } catch (UncheckedIOException e) {
                assertThat(killed[0]).as("only the kill cuts a write").isNotNegative();
            }
        }
    }

    private int next;

    private int clientsIndex() {
        return next++ % N;
    }

    /** The window goes on to its switch, content and audits checked in it, after it and over a further epoch. */
    private void goesOnThroughTheSwitch(JournaledPorServer server, PorClient client) {
        clients.assertContent(client, expected);
        while (server.storage().windowEpoch() == 2) {
            clients.writeRandom(client, expected, 1);
        }
        assertThat(server.state()).isEqualTo(new LogState(K, SWITCH, 2));
        assertThat(client.state().clientPartPending()).isFalse();
        clients.assertGoesOn(client, expected, N); // a further epoch, its own window
    }

    private void assertReopensWithTheContent() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            clients.assertContent(clients.resume(server), expected);
        }
    }

    private void write(PorClient client, int index) {
        byte[] block = new byte[BLOCK];
        clients.nextBytes(block);
        client.write(index, block);
        expected[index] = block;
    }

    private int neverWritten() {
        for (int i = 0; i < N; i++) {
            if (expected[i] == null) {
                return i;
            }
        }
        return -1;
    }

    private static void assertSameChecksums(List<byte[]> actual, List<byte[]> wanted) {
        List<String> a = new ArrayList<>();
        List<String> w = new ArrayList<>();
        actual.forEach(s -> a.add(s == null ? "none" : HexFormat.of().formatHex(s)));
        wanted.forEach(s -> w.add(s == null ? "none" : HexFormat.of().formatHex(s)));
        assertThat(a).isEqualTo(w);
    }

    private static void halt(JournaledPorServer server) {
        try {
            server.haltAsKilled();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

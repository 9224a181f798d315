package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's window: a server stopped as kill -9 stops it ({@link JournaledPorServer#haltAsKilled}: its levels in
 * memory never reach their files) after checkpoints where H's levels in memory are filled comes back from the window
 * and the calls after the checkpoint; a damaged, cut or incomplete window is refused; a former single-file journal
 * opens; a changed memory budget and a clean close keep what the window needs.
 */
class JournalWindowTest {
    private static final int BLOCK = 24;
    /** k = 5, b = 1: H holds 2^4 batches of 2 blocks. */
    private static final ServerParameters PARAMS = new ServerParameters(5, 1, BLOCK);
    /** H's levels 0 and 1 in memory (three run slots of 2 + 4 vectors of 2 blocks): a checkpoint every 4 adds. */
    private static final long TWO_LEVELS = 3 * 6L * (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;
    private static final long FILES_ONLY = 0;

    @TempDir
    Path root;

    private final JournaledClients clients = new JournaledClients(19, BLOCK, 3);

    /**
     * A clean close at t = 3 makes the checkpoints that follow come at t = 7, 11 and 15 (every 4 adds), each with
     * levels 0 and 1 filled in memory.
     */
    @Test
    void aServerKilledAtAnyCountComesBackWithItsLevelsInMemoryFromTheWindow() throws IOException {
        int withLevelsInMemoryAtTheCheckpoint = 0;
        for (int writes = 1; writes <= 25; writes++) { // every t from 3 to 15, with and without a block pending
            Path dir = root.resolve("w" + writes);
            clients.persisted.clear();
            byte[][] expected = new byte[32][];
            written(dir, TWO_LEVELS, expected, 32 + 6).close();
            List<String> smallLevels = List.of("h-0-x.vectors", "h-1-x.vectors", "h-0.sealed", "h-1.sealed");
            List<byte[]> spilled = new ArrayList<>();
            for (String file : smallLevels) {
                spilled.add(Files.readAllBytes(dir.resolve(file)));
            }
            JournaledPorServer killed = JournaledPorServer.open(dir, null, null, TWO_LEVELS);
            clients.writeRandom(clients.resume(killed), expected, writes);
            LogState acknowledged = killed.state();
            if (acknowledged.t() >= 7) {
                withLevelsInMemoryAtTheCheckpoint++; // only the window rebuilds levels 0 and 1
            }
            for (int i = 0; i < smallLevels.size(); i++) { // as the clean close left them: stale since
                assertThat(Files.readAllBytes(dir.resolve(smallLevels.get(i)))).isEqualTo(spilled.get(i));
            }
            killed.haltAsKilled(); // never closed: nothing spilled or checkpointed beyond what the calls did
            try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
                assertThat(server.state()).as("%d writes", writes).isEqualTo(acknowledged);
                clients.assertResumes(server, expected, 9); // across the next checkpoints
            }
        }
        assertThat(withLevelsInMemoryAtTheCheckpoint).isEqualTo(18);
    }

    /**
     * Three levels in memory (a checkpoint every 8 adds, a window of 16), the checkpoints off the multiples of 8 after
     * a clean close at t = 2: between a checkpoint and a crash the adds then reuse run slots of level 3, the first in
     * files, that an add redone after the checkpoint reads. A server killed after every add of the epoch from there
     * comes back with every vector it serves exact, and audits pass.
     */
    @Test
    void aServerWithThreeLevelsInMemoryKilledAtAnyCountAfterACleanCloseComesBackExact() throws IOException {
        ServerParameters params = new ServerParameters(6, 1, BLOCK); // H: 2^5 adds of 2 blocks an epoch
        long threeLevels = 3 * 14L * (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;
        for (int adds = 1; adds <= 29; adds++) { // t = 3 .. 31
            Path dir = root.resolve("three" + adds);
            JournaledClients epoch = new JournaledClients(adds, BLOCK, 2);
            byte[][] expected = new byte[64][];
            try (JournaledPorServer server = JournaledPorServer.open(dir, params, null, threeLevels)) {
                assertThat(server.storage().memoryLevels()).isEqualTo(3);
                epoch.writeRandom(epoch.initialize(server), expected, 64 + 4); // the second epoch, t = 2
            }
            JournaledPorServer killed = JournaledPorServer.open(dir, null, null, threeLevels);
            epoch.writeRandom(epoch.resume(killed), expected, 2 * adds + 1); // a block pending
            LogState acknowledged = killed.state();
            killed.haltAsKilled();
            try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, threeLevels)) {
                assertThat(server.state()).as("%d adds", adds).isEqualTo(acknowledged);
                epoch.assertResumes(server, expected, 18);
            }
        }
    }

    @Test
    void aCrashRightAfterTheRecordOfABatchThatMovesTheCheckpointIsRedoneOverTheWindow() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        written(dir, TWO_LEVELS, expected, 32 + 4).close(); // t = 2: the checkpoints that follow at 6, 10, ...
        JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS);
        clients.writeRandom(clients.resume(server), expected, 7); // t = 5, one pending
        CrashAfterJournal crash = new CrashAfterJournal(server, dir, PARAMS, MessageType.WRITE);
        // t = 6: level 1 filled in memory, a checkpoint
        clients.writeRandom(clients.resume(crash.proxy()), expected, 1);
        assertThat(server.state().t()).isEqualTo(6);
        server.haltAsKilled();
        crash.rewindJournal(); // killed right after the record: the checkpoint at 2, its window, the calls since
        clients.garble(dir.resolve("u.blocks"), (long) crash.index() * BLOCK, BLOCK / 2); // a torn write of the block
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(reopened.state()).isEqualTo(new LogState(4, 6, 2));
            clients.assertResumes(reopened, expected, 7);
        }
    }

    @Test
    void segmentsBeforeTheWindowThatACrashLeftAreDeletedAtOpen() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        written(dir, TWO_LEVELS, expected, 32 + 4).close(); // t = 2: the checkpoints that follow at 6, 10, ...
        JournaledPorServer killed = JournaledPorServer.open(dir, null, null, TWO_LEVELS);
        clients.writeRandom(clients.resume(killed), expected, 8); // t = 6: segments from 2 (the window) and 6
        List<Path> before = JournaledClients.segments(dir);
        assertThat(before).hasSize(2);
        List<byte[]> bytes = new ArrayList<>();
        for (Path p : before) {
            bytes.add(Files.readAllBytes(p));
        }
        // t = 14: the window (the latest 8 adds) is the segments from 6 and 10, the one from 2 is deleted
        clients.writeRandom(clients.resume(killed), expected, 16);
        assertThat(JournaledClients.segments(dir)).doesNotContain(before.get(0));
        killed.haltAsKilled();
        Files.write(before.get(0), bytes.get(0)); // as a crash between the new segment and the deletes leaves it
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(JournaledClients.segments(dir)).doesNotContain(before.get(0)).hasSize(3);
            clients.assertContent(clients.resume(server), expected);
        }
    }

    @Test
    void aDamagedCutOrIncompleteWindowIsRefusedAndNeverReplayed() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        written(dir, TWO_LEVELS, expected, 32 + 4).close(); // t = 2, then a clean close
        JournaledPorServer killed = JournaledPorServer.open(dir, null, null, TWO_LEVELS);
        // t = 7: a checkpoint at 6 (level 1 filled), its window 2..6
        clients.writeRandom(clients.resume(killed), expected, 10);
        killed.haltAsKilled();
        List<Path> segments = JournaledClients.segments(dir);
        assertThat(segments).hasSize(2); // the window's segment and the newest
        Path window = segments.get(0);
        byte[] whole = Files.readAllBytes(window);

        byte[] flipped = whole.clone();
        flipped[flipped.length - 3] ^= 1; // inside the last write of the window
        Files.write(window, flipped);
        assertRefused(dir, "damaged");

        Files.write(window, Arrays.copyOf(whole, whole.length - 10)); // cut short
        assertRefused(dir, "damaged");

        Files.delete(window);
        assertRefused(dir, "missing");

        Files.write(window, Arrays.copyOf(whole, 8 + 9 + 26)); // its checkpoint alone: adds lost
        assertRefused(dir, "ends at");

        Files.write(window, whole); // put back whole: the refusals changed nothing on disk
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            clients.assertContent(clients.resume(server), expected);
        }
    }

    @Test
    void aFormerSingleFileJournalBecomesTheFirstSegmentAndItsCallsAreRedone() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        written(dir, FILES_ONLY, expected, 32 + 7).haltAsKilled(); // t = 3, one pending, a checkpoint every batch
        List<Path> segments = JournaledClients.segments(dir);
        assertThat(segments).hasSize(1);
        List<ServerJournal.Entry> entries = new ArrayList<>();
        ServerJournal.readWhole(segments.get(0), ServerJournal.MAGIC, Integer.MAX_VALUE, entries);
        assertThat(entries).hasSize(2); // the checkpoint and the pending write
        // the former form: "CPORJNL2", a checkpoint of type 101 (epoch, t), the calls since
        ByteBuffer former = ByteBuffer.allocate(1 << 16).put(ServerJournal.FORMER_MAGIC);
        frame(former, (byte) 101, ByteBuffer.allocate(12).putLong(2).putInt(3).array());
        frame(former, entries.get(1).type(), entries.get(1).payload());
        Files.delete(segments.get(0));
        Files.write(dir.resolve(SegmentedJournal.FORMER), Arrays.copyOf(former.array(), former.position()));

        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(dir.resolve(SegmentedJournal.FORMER)).doesNotExist();
            assertThat(JournaledClients.segments(dir)).hasSize(1);
            assertThat(server.state()).isEqualTo(new LogState(4, 3, 2));
            // levels 0 and 1 from their files, the pending write redone; then over the next C rebuild
            clients.assertResumes(server, expected, 40);
        }
    }

    @Test
    void aFormerJournalLeftBesideItsSegmentByACrashIsDeletedAndTheInMemoryServersIsRefused() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        written(dir, TWO_LEVELS, expected, 32 + 3).haltAsKilled();
        Files.write(dir.resolve(SegmentedJournal.FORMER), ServerJournal.FORMER_MAGIC); // converted, not yet deleted
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(dir.resolve(SegmentedJournal.FORMER)).doesNotExist();
            clients.assertResumes(server, expected, 3);
        }
        Path old = root.resolve("old");
        JournaledPorServer.open(old, PARAMS).close();
        for (Path segment : JournaledClients.segments(old)) {
            Files.delete(segment);
        }
        Files.write(old.resolve(SegmentedJournal.FORMER), "CPORJNL1".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> JournaledPorServer.open(old, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("earlier in-memory server");
    }

    @Test
    void aSmallerMemoryBudgetRebuildsTheLevelsTheWindowWasKeptForIntoTheirFiles() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        killedAfterACheckpointWithLevelOneFilled(dir, expected);
        JournaledPorServer fewer = JournaledPorServer.open(dir, null, null, FILES_ONLY);
        assertThat(fewer.storage().memoryLevels()).isZero();
        PorClient resumed = clients.resume(fewer);
        clients.assertContent(resumed, expected); // levels 0 and 1 rebuilt from the window into their files
        clients.writeRandom(resumed, expected, 5); // t = 9
        fewer.haltAsKilled();
        try (JournaledPorServer more = JournaledPorServer.open(dir, null, null, 1L << 20)) {
            assertThat(more.storage().memoryLevels()).as("nothing was in memory: any budget").isEqualTo(4);
            clients.assertResumes(more, expected, 9);
        }
    }

    @Test
    void aLargerMemoryBudgetWaitsForACleanCloseWhileTheWindowIsKeptForFewerLevels() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        killedAfterACheckpointWithLevelOneFilled(dir, expected); // its window holds 8 adds, 4 levels need 32
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, 1L << 20)) {
            assertThat(server.storage().memoryLevels()).as("as the window was kept for").isEqualTo(2);
            clients.assertResumes(server, expected, 3); // over the next C rebuild
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, 1L << 20)) {
            assertThat(server.storage().memoryLevels()).as("after a clean close").isEqualTo(4);
            clients.assertResumes(server, expected, 30); // over the next C rebuild
        }
    }

    @Test
    void aCleanCloseWhileTheCheckpointReadsTheLevelFilesKeepsThemAndItsWindow() throws IOException {
        Path dir = root.resolve("d");
        byte[][] expected = new byte[32][];
        written(dir, TWO_LEVELS, expected, 32 + 6).close(); // t = 3: levels 0 and 1 written to their files
        List<String> smallLevels = List.of("h-0-x.vectors", "h-1-y.vectors", "h-0.sealed", "h-1.sealed");
        List<byte[]> spilled = new ArrayList<>();
        for (String file : smallLevels) {
            spilled.add(Files.readAllBytes(dir.resolve(file)));
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            clients.writeRandom(clients.resume(server), expected, 5); // t = 5, one pending: levels 0 and 2
            clients.writeRandom(clients.resume(server), expected, 1);
        }
        // the checkpoint at 3 read levels 0 and 1 from their files: a crash between a spill and the next segment
        // would have replayed from 3 over files holding t = 5, so the close kept them and moved with its window
        for (int i = 0; i < smallLevels.size(); i++) {
            assertThat(Files.readAllBytes(dir.resolve(smallLevels.get(i)))).isEqualTo(spilled.get(i));
        }
        assertThat(JournaledClients.segments(dir)).hasSize(2);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(server.state().t()).isEqualTo(6);
            clients.assertResumes(server, expected, 12);
        }
    }

    /**
     * A server at t = 15 with a block pending, killed: a clean close at t = 2 made its checkpoints come at t = 6, 10
     * and 14, the last with the window 6..14 (the latest 8 adds, addsHeldBelow(2)) kept for levels 0 and 1 in memory,
     * no longer from the files the clean close wrote.
     */
    private void killedAfterACheckpointWithLevelOneFilled(Path dir, byte[][] expected) throws IOException {
        written(dir, TWO_LEVELS, expected, 32 + 4).close();
        JournaledPorServer killed = JournaledPorServer.open(dir, null, null, TWO_LEVELS);
        clients.writeRandom(clients.resume(killed), expected, 27);
        assertThat(killed.state().t()).isEqualTo(15);
        assertThat(JournaledClients.segments(dir)).hasSize(3);
        killed.haltAsKilled();
    }

    /** A new server in {@code dir} with a memory budget of {@code budget}, initialised and written to. */
    private JournaledPorServer written(Path dir, long budget, byte[][] expected, int writes) throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, null, budget);
        clients.writeRandom(clients.initialize(server), expected, writes);
        return server;
    }

    private void assertRefused(Path dir, String why) {
        assertThatThrownBy(() -> JournaledPorServer.open(dir, null, null, TWO_LEVELS).close())
                .isInstanceOf(IOException.class).hasMessageContaining("window").hasMessageContaining(why);
    }

    /** A record as the journal frames it: length, CRC32C of type and payload, type, payload (docs/FORMAT.md). */
    private static void frame(ByteBuffer into, byte type, byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(type);
        crc.update(payload);
        into.putInt(payload.length).putInt((int) crc.getValue()).put(type).put(payload);
    }
}

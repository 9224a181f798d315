package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journaled server survives restarts: the same content, audits pass, writes go on. */
class JournaledPorServerTest {
    private static final int BLOCK = 24;
    /** A memory budget of 0: every level of H in files, a checkpoint after every batch. */
    private static final long FILES_ONLY = 0;
    /** k = 5, b = 1: H holds 2^4 batches of 2 blocks. */
    private static final ServerParameters SMALL_LEVELS_PARAMS = new ServerParameters(5, 1, BLOCK);
    /** A memory budget of exactly H's levels 0 and 1 (three run slots of 2 + 4 vectors of 2 blocks). */
    private static final long TWO_LEVELS = 3 * 6L * (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(11, BLOCK, 1);

    @Test
    void restartsBetweenWritesAndAuditsKeepTheContentAcrossCRebuilds() throws IOException {
        ServerParameters params = new ServerParameters(5, 1, BLOCK);
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 21); // one block pending in a batch of 2
            clients.assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 80); // over two C rebuilds, each compacting the journal
            client.flush();
            clients.assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
        }
    }

    @Test
    void withEveryLevelInFilesTheJournalHoldsACheckpointAndThePendingBatchOnly() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 2, BLOCK), null,
                FILES_ONLY)) {
            PorClient client = clients.initialize(server);
            long checkpointOnly = server.journalBytes();
            byte[][] expected = new byte[16][];
            for (int write = 1; write <= 40; write++) { // over two C rebuilds
                clients.writeRandom(client, expected, 1);
                int pending = write % 4;
                long bound = checkpointOnly + pending * (4 + 4 + 1 + 4 + BLOCK + 1 + 64L);
                assertThat(server.journalBytes()).isLessThanOrEqualTo(bound);
                if (pending == 0) {
                    assertThat(server.journalBytes()).isEqualTo(checkpointOnly);
                } else {
                    assertThat(server.journalBytes()).isGreaterThan(checkpointOnly);
                }
            }
            clients.assertContent(client, expected);
        }
    }

    @Test
    void theLogStateComesBackExactly() throws IOException {
        LogState before;
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(5, 1, BLOCK))) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, new byte[32][], 32 + 13); // the second epoch: t = 6, one block pending
            before = server.state();
            assertThat(before).isEqualTo(new LogState(4, 6, 2));
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(before);
        }
    }

    @Test
    void aTornRecordAtTheEndIsDroppedAndTheRestReplays() throws IOException {
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 2, BLOCK))) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 7); // three pending
        }
        long whole = Files.size(newestSegment());
        // a crash in the middle of an append: a header promising 500 bytes, and 3 of them
        Files.write(newestSegment(), new byte[] {0, 0, 1, (byte) 0xf4, 1, 2, 3, 4, 13, 9, 9, 9},
                StandardOpenOption.APPEND);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(newestSegment())).isEqualTo(whole);
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 1); // completes the batch the journal held
            clients.assertContent(client, expected);
        }
    }

    @Test
    void writesReachUsFilesOnlyAtAFlushSoLosingTheirUnforcedRecordsLosesNothingElse()
            throws IOException {
        byte[][] expected = new byte[16][];
        Path blocks = dir.resolve("u.blocks");
        Path sealed = dir.resolve("u.sealed");
        ClientState afterBatch;
        long journalAfterBatch;
        byte[][] contentAfterBatch;
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 2, BLOCK))) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 4); // one whole batch
            byte[] blocksBeforeFlush = Files.readAllBytes(blocks);
            client.flush(); // nothing pending: the batch is forced, and only now in U's files
            assertThat(Files.readAllBytes(blocks)).isNotEqualTo(blocksBeforeFlush);
            afterBatch = client.state();
            journalAfterBatch = Files.size(newestSegment());
            contentAfterBatch = expected.clone();
            byte[] blocksBefore = Files.readAllBytes(blocks);
            byte[] sealedBefore = Files.readAllBytes(sealed);
            for (int i = 0; i < 3; i++) { // pending: journaled, served, not in U's files
                byte[] block = new byte[BLOCK];
                clients.nextBytes(block);
                client.write(i, block);
                expected[i] = block;
            }
            assertThat(Files.readAllBytes(blocks)).isEqualTo(blocksBefore);
            assertThat(Files.readAllBytes(sealed)).isEqualTo(sealedBefore);
            assertThat(Files.size(newestSegment())).isGreaterThan(journalAfterBatch);
            clients.assertContent(client, expected);
        }
        // a power loss before the batch completed: the unforced records never reached the disk
        try (FileChannel journal = FileChannel.open(newestSegment(), StandardOpenOption.WRITE)) {
            journal.truncate(journalAfterBatch);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = clients.resume(server, afterBatch);
            clients.assertContent(client, contentAfterBatch); // U as the last batch left it, proofs and all
            clients.writeRandom(client, contentAfterBatch, 9);
            clients.assertContent(client, contentAfterBatch);
        }
    }

    @Test
    void aRecordThatFailsItsChecksumEndsTheReplayThere() throws IOException {
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 2, BLOCK))) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 3); // pending, each in the journal
        }
        long whole = Files.size(newestSegment());
        byte[] bytes = Files.readAllBytes(newestSegment());
        bytes[bytes.length - 5] ^= 1; // inside the last record (the third write)
        Files.write(newestSegment(), bytes);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(newestSegment())).isLessThan(whole);
            // the third write is gone from the log: the client's batch holds it, and the next audit says so
            PorClient client = clients.resume(server);
            client.flush();
            assertThat(client.audit().passed()).isFalse();
        }
    }

    @Test
    void aCrashWhileABatchIsAddedIsRedoneOnOpenOverAHalfWrittenLevel() throws IOException {
        ServerParameters params = new ServerParameters(5, 1, BLOCK);
        byte[][] expected = new byte[32][];
        LogState acknowledged;
        int writtenIndex;
        try (JournaledPorServer server = JournaledPorServer.open(dir, params, null, FILES_ONLY)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 15); // t = 7, one pending: the next write is add 8
            CrashAfterJournal crash = new CrashAfterJournal(server, dir, params, MessageType.WRITE);
            clients.writeRandom(clients.resume(crash.proxy()), expected, 1);
            acknowledged = server.state();
            assertThat(acknowledged.t()).isEqualTo(8);
            writtenIndex = crash.index();
            crash.rewindJournal();
        }
        // add 8 writes vectors 4 and 6 of level 2 (DeamortizedSchedule: the merge into level-2 run 1 starts): torn
        int record = (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;
        for (int position : new int[] {4, 6}) {
            clients.garble(dir.resolve("h-2-x.vectors"), (long) position * record, record / 2);
            clients.garble(dir.resolve("h-2.sealed"), (long) position * ChecksumSealer.SEALED_BYTES, 20);
        }
        clients.garble(dir.resolve("u.blocks"), (long) writtenIndex * BLOCK, BLOCK / 2); // a torn write of the block
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, FILES_ONLY)) {
            assertThat(server.state()).isEqualTo(acknowledged);
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 40);
            clients.assertContent(client, expected);
        }
    }

    /** The epoch's end only freezes H (C's rebuild is paced): C stays whole, and the open goes on in the window. */
    @Test
    void aCrashRightAfterTheEpochsEndIsRecordedOpensInThePacedWindowWithCWhole() throws IOException {
        ServerParameters params = new ServerParameters(4, 0, BLOCK);
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 15);
            CrashAfterJournal crash = new CrashAfterJournal(server, dir, params, MessageType.REBUILD_C);
            clients.writeRandom(clients.resume(crash.proxy()), expected, 1); // the 16th write: the client rebuilds C
            assertThat(server.state().epoch()).isEqualTo(2);
            crash.rewindJournal();
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(new LogState(4, 0, 2));
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            PorClient client = clients.resume(server);
            for (int i = 0; i < 5; i++) {
                clients.assertContent(client, expected); // audits of the old C and the frozen H among them
            }
            clients.assertGoesOn(client, expected, 8); // past the switch
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
        }
    }

    @Test
    void aCrashDuringAResyncIsRedoneOnOpenAndTheServerAheadOfTheClientIsCaughtUp() throws IOException {
        ServerParameters params = new ServerParameters(4, 1, BLOCK);
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 5);
            ClientState beforeCrash = client.state();
            clients.writeRandom(client, expected, 2); // acknowledged by the server, never persisted by the client
            PorClient restarted = clients.resume(server, beforeCrash);
            CrashAfterJournal crash = new CrashAfterJournal(server, dir, params, MessageType.RESYNC);
            clients.resume(crash.proxy(), restarted.state()).resync();
            assertThat(server.state().epoch()).isEqualTo(3);
            crash.rewindJournal();
        }
        clients.garble(dir.resolve("c-5-x.vectors"));
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(new LogState(3, 0, 3));
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 20);
            clients.assertContent(client, expected);
        }
    }

    /** The journal's segment that calls are appended to. */
    private Path newestSegment() throws IOException {
        List<Path> all = JournaledClients.segments(dir);
        return all.get(all.size() - 1);
    }

    @Test
    void levelsInMemoryNeverReachTheFilesAndTheCheckpointMovesEvery2ToTheMBatches() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            assertThat(server.storage().memoryLevels()).isEqualTo(2); // a checkpoint every 4 adds
            PorClient client = clients.initialize(server);
            long checkpointOnly = Files.size(newestSegment());
            for (int write = 1; write <= 32 + 20; write++) { // an epoch, a C rebuild, and on
                clients.writeRandom(client, expected, 1);
                int t = server.state().t();
                boolean batchEnded = write % 2 == 0;
                String at = "write " + write + ", t = " + t;
                if (t == 0) { // the C rebuild: a new epoch needs no window
                    assertThat(JournaledClients.segments(dir)).as(at).hasSize(1);
                } else if (batchEnded && t % 4 == 0) {
                    assertThat(Files.size(newestSegment())).as(at).isEqualTo(checkpointOnly);
                    // the deamortised levels 0 and 1 depend on the latest 8 adds (addsHeldBelow(2)): the segments
                    // that hold them stay, one per checkpoint since the epoch began or 8 adds ago
                    assertThat(JournaledClients.segments(dir)).as(at).hasSize(1 + Math.min(t, 8) / 4);
                } else {
                    assertThat(Files.size(newestSegment())).as(at).isGreaterThan(checkpointOnly);
                }
                if (t >= 4) {
                    assertThat(dir.resolve("h-2-x.vectors")).exists();
                }
            }
            for (String file : List.of("h-0-x.vectors", "h-0-y.vectors", "h-1-x.vectors", "h-0.sealed",
                    "h-1.sealed")) {
                assertThat(dir.resolve(file)).doesNotExist();
            }
            clients.assertContent(client, expected);
        }
    }

    @Test
    void theBudgetPropertySetsHowManyLevelsTheServerKeepsInMemory() throws IOException {
        String before = System.getProperty(SmallLevelsInMemory.BUDGET_PROPERTY);
        try {
            System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, "0");
            try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS)) {
                assertThat(server.storage().memoryLevels()).isZero();
            }
            System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, "1");
            try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS)) {
                assertThat(server.storage().memoryLevels()).as("all of H's tiny levels").isEqualTo(4);
            }
            System.clearProperty(SmallLevelsInMemory.BUDGET_PROPERTY);
            try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS)) {
                assertThat(server.storage().memoryLevels()).as("an eighth of the heap: all of H's tiny levels")
                        .isEqualTo(4);
            }
        } finally {
            if (before != null) {
                System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, before);
            }
        }
    }

    @Test
    void aRestartBetweenCheckpointsRebuildsTheLevelsInMemoryFromTheJournal() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 32 + 11); // the second epoch: t = 5 (levels 0 and 2), one pending
            assertThat(server.state().t()).isEqualTo(5);
        }
        for (int restart = 0; restart < 3; restart++) {
            try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
                assertThat(server.state().t()).isEqualTo(5 + 3 * restart);
                PorClient client = clients.resume(server);
                clients.assertContent(client, expected);
                clients.writeRandom(client, expected, 6); // three batches more: across a checkpoint every other time
                clients.assertContent(client, expected);
            }
        }
    }

    @Test
    void aCleanCloseWritesTheLevelsInMemoryToTheirFilesAndLeavesOnlyTheCheckpoint() throws IOException {
        byte[][] expected = new byte[32][];
        long checkpointOnly;
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            PorClient client = clients.initialize(server);
            checkpointOnly = server.journalBytes();
            clients.writeRandom(client, expected, 32 + 10); // the second epoch: t = 5, levels 0 and 2 filled
            client.flush();
            assertThat(server.journalBytes()).isGreaterThan(checkpointOnly);
            assertThat(dir.resolve("h-0-x.vectors")).doesNotExist();
        }
        assertThat(Files.size(newestSegment())).isEqualTo(checkpointOnly);
        assertThat(dir.resolve("h-0-x.vectors")).exists();
        assertThat(dir.resolve("h-0.sealed")).exists();
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(server.state().t()).isEqualTo(5);
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected); // level 0 read from its file
            clients.writeRandom(client, expected, 12); // t = 11: level 0 rewritten in memory, a checkpoint at t = 8
            clients.assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(server.state().t()).isEqualTo(11);
            clients.assertContent(clients.resume(server), expected);
        }
    }

    @Test
    void aStoreCheckpointedWithSmallLevelsInFilesOpensWithThemInMemoryAndBack() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, 0)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 32 + 6); // t = 3: levels 0 and 1 filled, in files, at the checkpoint
            assertThat(server.state().t()).isEqualTo(3);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected); // levels 0 and 1 read from their files
            clients.writeRandom(client, expected, 7); // t = 6 and one pending: in memory now, no checkpoint since t = 4
            clients.assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, 0)) { // all in files again
            assertThat(server.state().t()).isEqualTo(6);
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 30); // over the next C rebuild
            clients.assertContent(client, expected);
        }
    }

    @Test
    void theParametersAreFixedAtTheFirstStartAndTheDirectoryIsHeldByOneServer() throws IOException {
        assertThatThrownBy(() -> JournaledPorServer.open(dir, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("give k and the block size");
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 0, BLOCK))) {
            assertThat(server.k()).isEqualTo(4);
            assertThatThrownBy(() -> JournaledPorServer.open(dir, null)).isInstanceOf(IOException.class)
                    .hasMessageContaining("in use");
        }
        assertThatThrownBy(() -> JournaledPorServer.open(dir, new ServerParameters(5, 0, BLOCK)))
                .isInstanceOf(IOException.class).hasMessageContaining("was created with");
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.blockBytes()).isEqualTo(BLOCK);
        }
    }

    /** The parameters file as a version before the layout mark of H wrote it. */
    private void unmarkLayout() throws IOException {
        Path file = dir.resolve("parameters");
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        assertThat(text).contains("hLayout=deamortized");
        Files.writeString(file, text.replace("hLayout=deamortized\n", ""), StandardCharsets.US_ASCII);
    }

    @Test
    void aStoreFromBeforeHWasDeamortisedRefusesHUntilTheClientResynchronisesThenIsMarked() throws IOException {
        byte[][] expected = new byte[32][];
        // every level in files: the checkpoint follows every batch, so the journal holds no add when it closes
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, FILES_ONLY)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 32 + 13); // a C rebuild, then t = 6 and a block pending
        }
        unmarkLayout();
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = clients.resume(server);
            assertThat(server.logState()).as("apart from every client's state").isEqualTo(new LogState(4, 0, 3));
            assertThat(client.read(3)).isEqualTo(expected[3] == null ? new byte[BLOCK] : expected[3]); // U serves
            assertThatThrownBy(() -> clients.writeRandom(client, expected, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("resynchronise");
            assertThat(client.audit().passed()).isFalse();
            client.resync();
            assertThat(Files.readString(dir.resolve("parameters"))).contains("hLayout=deamortized");
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 20);
            clients.assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = clients.resume(server);
            assertThat(server.logState()).isEqualTo(client.state().hLog());
            clients.assertContent(client, expected);
        }
    }

    @Test
    void aStoreFromBeforeHWasDeamortisedWhoseJournalHoldsAnAddIsRefusedWithWhatToRun() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 3); // an add, then a block pending: the close leaves them in the journal
        }
        unmarkLayout();
        assertThatThrownBy(() -> JournaledPorServer.open(dir, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("start the earlier version on it, have the client flush, stop it");
    }
}

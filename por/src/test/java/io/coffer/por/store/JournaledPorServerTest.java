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
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journaled server survives restarts: the same content, audits pass, writes go on. */
class JournaledPorServerTest {
    private static final byte[] MASTER_KEY = new byte[32];
    private static final int BLOCK = 24;
    /** A memory budget of 0: every level of H in files, a checkpoint after every batch. */
    private static final long FILES_ONLY = 0;
    /** k = 5, b = 1: H holds 2^4 batches of 2 blocks. */
    private static final ServerParameters SMALL_LEVELS_PARAMS = new ServerParameters(5, 1, BLOCK);
    /** A memory budget of exactly H's levels 0 and 1 (three run slots of 2 + 4 vectors of 2 blocks). */
    private static final long TWO_LEVELS = 3 * 6L * (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;

    static {
        new SplittableRandom(42).nextBytes(MASTER_KEY);
    }

    @TempDir
    Path dir;

    private final List<ClientState> persisted = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(11);

    private void writeRandom(PorClient client, byte[][] expected, int count) {
        for (int i = 0; i < count; i++) {
            int index = random.nextInt(expected.length);
            byte[] block = new byte[BLOCK];
            random.nextBytes(block);
            client.write(index, block);
            expected[index] = block;
        }
    }

    private void assertContent(PorClient client, byte[][] expected) {
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
    }

    private PorClient resume(JournaledPorServer server) {
        return new PorClient(server, persisted.get(persisted.size() - 1), new SecureRandom(), persisted::add);
    }

    @Test
    void restartsBetweenWritesAndAuditsKeepTheContentAcrossCRebuilds() throws IOException {
        ServerParameters params = new ServerParameters(5, 1, BLOCK);
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 21); // one block pending in a batch of 2
            assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = resume(server);
            assertContent(client, expected);
            writeRandom(client, expected, 80); // over two C rebuilds, each compacting the journal
            client.flush();
            assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = resume(server);
            assertContent(client, expected);
        }
    }

    @Test
    void withEveryLevelInFilesTheJournalHoldsACheckpointAndThePendingBatchOnly() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 2, BLOCK), null,
                FILES_ONLY)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            long checkpointOnly = server.journalBytes();
            byte[][] expected = new byte[16][];
            for (int write = 1; write <= 40; write++) { // over two C rebuilds
                writeRandom(client, expected, 1);
                int pending = write % 4;
                long bound = checkpointOnly + pending * (4 + 4 + 1 + 4 + BLOCK + 1 + 64L);
                assertThat(server.journalBytes()).isLessThanOrEqualTo(bound);
                if (pending == 0) {
                    assertThat(server.journalBytes()).isEqualTo(checkpointOnly);
                } else {
                    assertThat(server.journalBytes()).isGreaterThan(checkpointOnly);
                }
            }
            assertContent(client, expected);
        }
    }

    @Test
    void theLogStateComesBackExactly() throws IOException {
        LogState before;
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(5, 1, BLOCK))) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, new byte[32][], 32 + 13); // the second epoch: t = 6, one block pending
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
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 7); // three pending
        }
        long whole = Files.size(dir.resolve("journal"));
        // a crash in the middle of an append: a header promising 500 bytes, and 3 of them
        Files.write(dir.resolve("journal"), new byte[] {0, 0, 1, (byte) 0xf4, 1, 2, 3, 4, 13, 9, 9, 9},
                StandardOpenOption.APPEND);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(dir.resolve("journal"))).isEqualTo(whole);
            PorClient client = resume(server);
            assertContent(client, expected);
            writeRandom(client, expected, 1); // completes the batch the journal held
            assertContent(client, expected);
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
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 3);
            byte[] blocksBeforeBatch = Files.readAllBytes(blocks);
            writeRandom(client, expected, 1); // completes the batch
            client.flush(); // nothing pending: the batch is forced (here or at its checkpoint), only now in U's files
            assertThat(Files.readAllBytes(blocks)).isNotEqualTo(blocksBeforeBatch);
            afterBatch = client.state();
            journalAfterBatch = Files.size(dir.resolve("journal"));
            contentAfterBatch = expected.clone();
            byte[] blocksBefore = Files.readAllBytes(blocks);
            byte[] sealedBefore = Files.readAllBytes(sealed);
            for (int i = 0; i < 3; i++) { // pending: journaled, served, not in U's files
                byte[] block = new byte[BLOCK];
                random.nextBytes(block);
                client.write(i, block);
                expected[i] = block;
            }
            assertThat(Files.readAllBytes(blocks)).isEqualTo(blocksBefore);
            assertThat(Files.readAllBytes(sealed)).isEqualTo(sealedBefore);
            assertThat(Files.size(dir.resolve("journal"))).isGreaterThan(journalAfterBatch);
            assertContent(client, expected);
        }
        // a power loss before the batch completed: the unforced records never reached the disk
        try (FileChannel journal = FileChannel.open(dir.resolve("journal"), StandardOpenOption.WRITE)) {
            journal.truncate(journalAfterBatch);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = new PorClient(server, afterBatch, new SecureRandom(), persisted::add);
            assertContent(client, contentAfterBatch); // U as the last batch left it, proofs and all
            writeRandom(client, contentAfterBatch, 9);
            assertContent(client, contentAfterBatch);
        }
    }

    @Test
    void aRecordThatFailsItsChecksumEndsTheReplayThere() throws IOException {
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 2, BLOCK))) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 3); // pending, each in the journal
        }
        long whole = Files.size(dir.resolve("journal"));
        byte[] bytes = Files.readAllBytes(dir.resolve("journal"));
        bytes[bytes.length - 5] ^= 1; // inside the last record (the third write)
        Files.write(dir.resolve("journal"), bytes);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(dir.resolve("journal"))).isLessThan(whole);
            // the third write is gone from the log: the client's batch holds it, and the next audit says so
            PorClient client = resume(server);
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
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 15); // t = 7, one pending: the next write is add 8
            CrashAfterJournal crash = new CrashAfterJournal(server, dir, params, MessageType.WRITE);
            writeRandom(new PorClient(crash.proxy(), persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add), expected, 1);
            acknowledged = server.state();
            assertThat(acknowledged.t()).isEqualTo(8);
            writtenIndex = crash.index();
            crash.rewindJournal();
        }
        // add 8 writes vectors 4 and 6 of level 2 (DeamortizedSchedule: the merge into level-2 run 1 starts): torn
        int record = (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;
        for (int position : new int[] {4, 6}) {
            garble(dir.resolve("h-2-x.vectors"), (long) position * record, record / 2);
            garble(dir.resolve("h-2.sealed"), (long) position * ChecksumSealer.SEALED_BYTES, 20); // written in place
        }
        garble(dir.resolve("u.blocks"), (long) writtenIndex * BLOCK, BLOCK / 2); // a torn write of the block
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, FILES_ONLY)) {
            assertThat(server.state()).isEqualTo(acknowledged);
            PorClient client = resume(server);
            assertContent(client, expected);
            writeRandom(client, expected, 40);
            assertContent(client, expected);
        }
    }

    @Test
    void aCrashWhileCIsRebuiltIsRedoneOnOpenOverAHalfWrittenC() throws IOException {
        ServerParameters params = new ServerParameters(4, 0, BLOCK);
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 15);
            CrashAfterJournal crash = new CrashAfterJournal(server, dir, params, MessageType.REBUILD_C);
            writeRandom(new PorClient(crash.proxy(), persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add), expected, 1); // the 16th write: the client rebuilds C
            assertThat(server.state().epoch()).isEqualTo(2);
            crash.rewindJournal();
        }
        garble(dir.resolve("c-5-x.vectors"));
        garble(dir.resolve("c-5-y.vectors"));
        garble(dir.resolve("c.sealed"));
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(new LogState(4, 0, 2));
            PorClient client = resume(server);
            for (int i = 0; i < 5; i++) {
                assertContent(client, expected); // audits of C among them
            }
        }
    }

    @Test
    void aCrashDuringAResyncIsRedoneOnOpenAndTheServerAheadOfTheClientIsCaughtUp() throws IOException {
        ServerParameters params = new ServerParameters(4, 1, BLOCK);
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 5);
            ClientState beforeCrash = client.state();
            writeRandom(client, expected, 2); // acknowledged by the server, never persisted by the client
            PorClient restarted = new PorClient(server, beforeCrash, new SecureRandom(), persisted::add);
            CrashAfterJournal crash = new CrashAfterJournal(server, dir, params, MessageType.RESYNC);
            new PorClient(crash.proxy(), restarted.state(), new SecureRandom(), persisted::add).resync();
            assertThat(server.state().epoch()).isEqualTo(3);
            crash.rewindJournal();
        }
        garble(dir.resolve("c-5-x.vectors"));
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.state()).isEqualTo(new LogState(3, 0, 3));
            PorClient client = resume(server);
            assertContent(client, expected);
            writeRandom(client, expected, 20);
            assertContent(client, expected);
        }
    }

    /** Overwrites the first half of {@code file} with random bytes, as an interrupted rewrite of it may leave it. */
    private void garble(Path file) throws IOException {
        garble(file, 0, (int) (Files.size(file) / 2));
    }

    private void garble(Path file, long from, int length) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        byte[] noise = new byte[length];
        random.nextBytes(noise);
        System.arraycopy(noise, 0, bytes, (int) from, length);
        Files.write(file, bytes);
    }

    @Test
    void levelsInMemoryNeverReachTheFilesAndTheCheckpointMovesOnlyWhenTheyAreEmpty() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            assertThat(server.storage().memoryLevels()).isEqualTo(2);
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            long checkpointOnly = server.journalBytes();
            for (int write = 1; write <= 32 + 20; write++) { // an epoch, a C rebuild, and on
                writeRandom(client, expected, 1);
                int t = server.state().t();
                boolean batchEnded = write % 2 == 0;
                if (batchEnded && t % 4 == 0) {
                    assertThat(server.journalBytes()).as("write %d, t = %d", write, t).isEqualTo(checkpointOnly);
                } else {
                    assertThat(server.journalBytes()).as("write %d, t = %d", write, t).isGreaterThan(checkpointOnly);
                }
                if (t >= 4) {
                    assertThat(dir.resolve("h-2-x.vectors")).exists();
                }
            }
            for (String file : List.of("h-0-x.vectors", "h-0-y.vectors", "h-1-x.vectors", "h-0.sealed",
                    "h-1.sealed")) {
                assertThat(dir.resolve(file)).doesNotExist();
            }
            assertContent(client, expected);
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
                assertThat(server.storage().memoryLevels()).as("none by default, H being deamortised").isZero();
            }
        } finally {
            if (before != null) {
                System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, before);
            }
        }
    }

    @Test
    @Disabled("the checkpoint rule waits for H's levels in memory to be empty, which deamortised runs never all are:"
            + " a restart loses them (the journal window of branch porjournal replaces the rule)")
    void aRestartBetweenCheckpointsRebuildsTheLevelsInMemoryFromTheJournal() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 32 + 11); // the second epoch: t = 5 (levels 0 and 2), one pending
            assertThat(server.state().t()).isEqualTo(5);
        }
        for (int restart = 0; restart < 3; restart++) {
            try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
                assertThat(server.state().t()).isEqualTo(5 + 3 * restart);
                PorClient client = resume(server);
                assertContent(client, expected);
                writeRandom(client, expected, 6); // three batches more: across a checkpoint every other time
                assertContent(client, expected);
            }
        }
    }

    @Test
    void aCleanCloseWritesTheLevelsInMemoryToTheirFilesAndLeavesOnlyTheCheckpoint() throws IOException {
        byte[][] expected = new byte[32][];
        long checkpointOnly;
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            checkpointOnly = server.journalBytes();
            writeRandom(client, expected, 32 + 10); // the second epoch: t = 5, levels 0 and 2 filled
            client.flush();
            assertThat(server.journalBytes()).isGreaterThan(checkpointOnly);
            assertThat(dir.resolve("h-0-x.vectors")).doesNotExist();
        }
        assertThat(Files.size(dir.resolve("journal"))).isEqualTo(checkpointOnly);
        assertThat(dir.resolve("h-0-x.vectors")).exists();
        assertThat(dir.resolve("h-0.sealed")).exists();
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(server.state().t()).isEqualTo(5);
            PorClient client = resume(server);
            assertContent(client, expected); // level 0 read from its file
            writeRandom(client, expected, 12); // t = 11: level 0 rewritten in memory, a checkpoint at t = 8
            assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            assertThat(server.state().t()).isEqualTo(11);
            assertContent(resume(server), expected);
        }
    }

    @Test
    @Disabled("the checkpoint rule waits for H's levels in memory to be empty, which deamortised runs never all are:"
            + " a restart loses them (the journal window of branch porjournal replaces the rule)")
    void aStoreCheckpointedWithSmallLevelsInFilesOpensWithThemInMemoryAndBack() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, 0)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 32 + 6); // t = 3: levels 0 and 1 filled, in files, at the checkpoint
            assertThat(server.state().t()).isEqualTo(3);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, TWO_LEVELS)) {
            PorClient client = resume(server);
            assertContent(client, expected); // levels 0 and 1 read from their files
            writeRandom(client, expected, 7); // t = 6 and one pending: in memory now, no checkpoint since t = 4
            assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, null, 0)) { // all in files again
            assertThat(server.state().t()).isEqualTo(6);
            PorClient client = resume(server);
            assertContent(client, expected);
            writeRandom(client, expected, 30); // over the next C rebuild
            assertContent(client, expected);
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
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 32 + 13); // a C rebuild, then t = 6 and a block pending
        }
        unmarkLayout();
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = resume(server);
            assertThat(server.logState()).as("apart from every client's state").isEqualTo(new LogState(4, 0, 3));
            assertThat(client.read(3)).isEqualTo(expected[3] == null ? new byte[BLOCK] : expected[3]); // U serves
            assertThatThrownBy(() -> writeRandom(client, expected, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("resynchronise");
            assertThat(client.audit().passed()).isFalse();
            client.resync();
            assertThat(Files.readString(dir.resolve("parameters"))).contains("hLayout=deamortized");
            assertContent(client, expected);
            writeRandom(client, expected, 20);
            assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = resume(server);
            assertThat(server.logState()).isEqualTo(client.state().hLog());
            assertContent(client, expected);
        }
    }

    @Test
    void aStoreFromBeforeHWasDeamortisedWhoseJournalHoldsAnAddIsRefusedWithWhatToRun() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, SMALL_LEVELS_PARAMS, null, TWO_LEVELS)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 3); // an add, then a block pending: the close leaves them in the journal
        }
        unmarkLayout();
        assertThatThrownBy(() -> JournaledPorServer.open(dir, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("start the earlier version on it, have the client flush, stop it");
    }
}

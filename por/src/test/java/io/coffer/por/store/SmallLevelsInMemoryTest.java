package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H's smallest levels in memory only: they never reach the files, the checkpoint moves only when they are empty, and
 * a restart rebuilds them from the journal, also over a store whose checkpoint left them filled in files.
 */
class SmallLevelsInMemoryTest {
    private static final byte[] MASTER_KEY = new byte[32];
    private static final int BLOCK = 24;
    private static final ServerParameters PARAMS = new ServerParameters(5, 1, BLOCK); // H: 2^4 batches of 2 blocks
    private static final long H_VECTOR_BYTES = (long) (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES;
    /** Exactly levels 0 and 1: 2 + 4 vectors. */
    private static final long TWO_LEVELS = 6 * H_VECTOR_BYTES;

    static {
        new SplittableRandom(42).nextBytes(MASTER_KEY);
    }

    @TempDir
    Path dir;

    private final List<ClientState> persisted = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(7);

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
    void theBudgetSaysHowManyLevelsFromLevelZero() {
        CodeParameters h = new CodeParameters(4);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 0)).isZero();
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 2 * 40 - 1)).isZero();
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 2 * 40)).isEqualTo(1);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 6 * 40)).isEqualTo(2);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 14 * 40 - 1)).isEqualTo(2);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, Long.MAX_VALUE / 4)).isEqualTo(4); // never C's level
        assertThat(SmallLevelsInMemory.defaultBudget()).isPositive()
                .isLessThanOrEqualTo(SmallLevelsInMemory.MAX_BUDGET_BYTES);
    }

    @Test
    void levelsInMemoryNeverReachTheFilesAndTheCheckpointMovesOnlyWhenTheyAreEmpty() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, null, TWO_LEVELS)) {
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
    void aRestartBetweenCheckpointsRebuildsTheLevelsInMemoryFromTheJournal() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, null, TWO_LEVELS)) {
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
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, null, TWO_LEVELS)) {
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
    void aStoreCheckpointedWithSmallLevelsInFilesOpensWithThemInMemoryAndBack() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, null, 0)) {
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
    void theStoreReadsAndSlicesWhatItHoldsInMemoryAndFallsBackToFilesForTheRest() throws IOException {
        CodeParameters h = new CodeParameters(3);
        int width = 6;
        try (FileLevelStore files = new FileLevelStore(dir, "h", h, width)) {
            int[] old = {1, 2, 3, 4, 5, 6};
            files.write(1, Part.X, 0, old); // as a store checkpointed with level 1 in files left it
            SmallLevelsInMemory store = new SmallLevelsInMemory(files, h, 2);
            int[] into = new int[width];
            store.read(1, Part.X, 0, into);
            assertThat(into).isEqualTo(old);

            int[] fresh = {10, 20, 30, 40, 50, 60};
            store.write(1, Part.X, 0, fresh);
            store.write(1, Part.X, 1, fresh);
            store.write(2, Part.X, 0, fresh);
            store.read(1, Part.X, 0, into);
            assertThat(into).isEqualTo(fresh);
            files.read(1, Part.X, 0, into);
            assertThat(into).as("level 1 in memory only").isEqualTo(old);
            files.read(2, Part.X, 0, into);
            assertThat(into).as("level 2 in files").isEqualTo(fresh);
            assertThat(store.readSlice(1, Part.X, new int[] {1, 4})).isEqualTo(new int[][] {{20, 50}, {20, 50}});
            assertThat(Files.size(dir.resolve("h-1-x.vectors"))).isEqualTo(width * Integer.BYTES);
        }
    }
}

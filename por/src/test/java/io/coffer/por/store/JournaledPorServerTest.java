package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journaled server survives restarts: the same content, audits pass, writes go on. */
class JournaledPorServerTest {
    private static final byte[] MASTER_KEY = new byte[32];
    private static final int BLOCK = 24;

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
    void aCRebuildReplacesTheJournalWithASnapshotOfU() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 0, BLOCK))) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            byte[][] expected = new byte[16][];
            writeRandom(client, expected, 15);
            long beforeRebuild = server.journalBytes();
            writeRandom(client, expected, 1); // the 16th write of the epoch: the client rebuilds C
            writeRandom(client, expected, 1);
            assertThat(server.journalBytes()).isLessThan(beforeRebuild);
            for (int epoch = 0; epoch < 4; epoch++) {
                writeRandom(client, expected, 16);
                assertThat(server.journalBytes()).isLessThan(beforeRebuild + 2000);
            }
        }
    }

    @Test
    void aTornRecordAtTheEndIsDroppedAndTheRestReplays() throws IOException {
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 0, BLOCK))) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 7);
        }
        long whole = Files.size(dir.resolve("journal"));
        // a crash in the middle of an append: a header promising 500 bytes, and 3 of them
        Files.write(dir.resolve("journal"), new byte[] {0, 0, 1, (byte) 0xf4, 1, 2, 3, 4, 13, 9, 9, 9},
                StandardOpenOption.APPEND);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(dir.resolve("journal"))).isEqualTo(whole);
            assertContent(resume(server), expected);
        }
    }

    @Test
    void aRecordThatFailsItsChecksumEndsTheReplayThere() throws IOException {
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 0, BLOCK))) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            writeRandom(client, expected, 3);
        }
        long whole = Files.size(dir.resolve("journal"));
        byte[] bytes = Files.readAllBytes(dir.resolve("journal"));
        bytes[bytes.length - 5] ^= 1; // inside the last record (the third write)
        Files.write(dir.resolve("journal"), bytes);
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(Files.size(dir.resolve("journal"))).isLessThan(whole);
            // the third write is gone: the client's state is ahead of the server, and its next check says so
            PorClient client = resume(server);
            assertThat(client.audit().passed()).isFalse();
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
}

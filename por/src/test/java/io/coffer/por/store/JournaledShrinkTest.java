package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shrink of the server in a directory (appendix A.3, consolidation; {@link StoreGrowth}, {@link StoreShrink}): the
 * store reopens at the smaller capacity with U's files cut and no files of H's higher levels or of another C, and a
 * kill -9 at each step leaves a store that opens at the old k (the record not yet in place) or shrunk, every kept
 * block reading back once the client has resynchronised where its state and the server's differ.
 */
class JournaledShrinkTest {
    private static final int K = 3;
    private static final int B = 1;
    private static final int BLOCK = 48;
    private static final ServerParameters INITIAL = new ServerParameters(K, B, BLOCK);

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(37, BLOCK, 2);

    /** Grown to 2^(K+2) blocks, every one written, then every index from 2^K on deleted (written as zero). */
    private byte[][] grownAndEmptiedAbove(JournaledPorServer server) {
        PorClient client = clients.initialize(server);
        client.grow(K + 2);
        byte[][] expected = new byte[1 << (K + 2)][];
        for (int i = 0; i < expected.length; i++) {
            byte[] block = new byte[BLOCK];
            clients.nextBytes(block);
            client.write(i, block);
            expected[i] = block;
        }
        for (int i = 1 << K; i < expected.length; i++) {
            client.write(i, new byte[BLOCK]);
            expected[i] = null;
        }
        client.flush();
        return expected;
    }

    private static byte[][] kept(byte[][] expected, int k) {
        return Arrays.copyOf(expected, 1 << k);
    }

    private void assertCutTo(int k) throws IOException {
        assertThat(Files.size(dir.resolve("u.sealed"))).isLessThanOrEqualTo((1L << k) * DirectoryStorage.U_RECORD);
        assertThat(Files.size(dir.resolve("u.blocks"))).isLessThanOrEqualTo((1L << k) * BLOCK);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.startsWith("c-") && !name.startsWith("c-" + (k + 1) + "-"))
                    .noneMatch(name -> name.startsWith("h-" + (k - B + 1)) || name.startsWith("h-" + (k - B + 2)));
        }
    }

    @Test
    void aShrunkStoreReopensAtTheSmallerCapacityWithItsFilesCut() throws IOException {
        byte[][] expected;
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            expected = grownAndEmptiedAbove(server);
            PorClient client = clients.resume(server);
            client.shrink(K + 1);
            client.shrink(K);
            assertThat(server.k()).isEqualTo(K);
            expected = kept(expected, K);
            clients.assertGoesOn(client, expected, 30); // over a C rebuild at the smaller k
        }
        assertThat(dir.resolve(StoreGrowth.FILE)).doesNotExist();
        assertCutTo(K);
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            assertThat(server.k()).isEqualTo(K);
            PorClient client = clients.assertResumes(server, expected, 20);
            client.grow(K + 1); // the cut indices come back empty
            clients.assertContent(client, kept(expected, K + 1));
        }
    }

    @Test
    void aStoreShrunkBelowTheCapacityItWasCreatedWithReopensWithItsFirstParameters() throws IOException {
        ServerParameters created = new ServerParameters(K + 1, B, BLOCK);
        byte[][] expected = new byte[1 << (K + 1)][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, created)) {
            PorClient client = clients.initialize(server);
            for (int i = 0; i < 1 << K; i++) { // the upper half never written, so a shrink to 2^K keeps every block
                expected[i] = new byte[BLOCK];
                clients.nextBytes(expected[i]);
                client.write(i, expected[i]);
            }
            client.flush();
            client.shrink(K); // as a gateway's consolidation with a floor below the server's --k does
            assertThat(server.k()).isEqualTo(K);
        }
        expected = kept(expected, K);
        try (JournaledPorServer server = JournaledPorServer.open(dir, created)) { // the first command line again
            assertThat(server.k()).isEqualTo(K);
            clients.assertResumes(server, expected, 20);
        }
        assertThatThrownBy(() -> JournaledPorServer.open(dir, new ServerParameters(K + 2, B, BLOCK)))
                .isInstanceOf(IOException.class).hasMessageContaining("was created with k = " + (K + 1));
    }

    @Test
    void aServerKilledOnceTheShrinkIsRecordedShrinksAtItsNextOpenAndTheClientFollows() throws IOException {
        JournaledPorServer killed = JournaledPorServer.open(dir, INITIAL);
        byte[][] expected = grownAndEmptiedAbove(killed);
        ClientState before = clients.persisted.get(clients.persisted.size() - 1);
        JournaledClients.killedOnceRecorded(killed, clients.resume(killed, before), c -> c.shrink(K));
        assertThat(dir.resolve(StoreGrowth.FILE)).exists();
        // a crash in the middle of completing it: the parameters already cut, the tree and C's checksums torn
        ParametersFile.grow(dir.resolve("parameters"), K);
        clients.garble(dir.resolve("u.merkle"));
        clients.garble(dir.resolve("c.sealed"));

        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            assertThat(server.k()).isEqualTo(K);
            assertThat(dir.resolve(StoreGrowth.FILE)).doesNotExist();
            assertCutTo(K);
            PorClient client = clients.resume(server, before); // the shrink's answer never reached it
            assertThatThrownBy(client::resync).hasMessageContaining("impossible log state");
            client.resync(K);
            assertThat(client.state().k()).isEqualTo(K);
            expected = kept(expected, K);
            clients.assertGoesOn(client, expected, 30);
        }
    }

    @Test
    void aShrinkCompletedAgainAfterAKillBeforeItsRecordWasDeletedChangesNothing() throws IOException {
        JournaledPorServer killed = JournaledPorServer.open(dir, INITIAL);
        byte[][] expected = grownAndEmptiedAbove(killed);
        // as if killed before the record's delete
        JournaledClients.resizedWithItsRecordPutBack(dir, killed, clients.resume(killed), c -> c.shrink(K + 1), K + 1);

        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            assertThat(server.k()).isEqualTo(K + 1);
            PorClient client = clients.resume(server);
            client.resync(K + 1);
            clients.assertContent(client, kept(expected, K + 1));
        }
        assertCutTo(K + 1);
    }

    @Test
    void aServerKilledBeforeTheRecordOpensAtTheOldCapacityAndTheClientShrinksLater() throws IOException {
        JournaledPorServer killed = JournaledPorServer.open(dir, INITIAL);
        byte[][] expected = grownAndEmptiedAbove(killed);
        killed.haltAsKilled();
        byte[] torn = new byte[100];
        clients.nextBytes(torn);
        Files.write(dir.resolve(StoreGrowth.FILE + ".tmp"), torn);

        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            assertThat(server.k()).isEqualTo(K + 2);
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            client.shrink(K);
            clients.assertContent(client, kept(expected, K));
        }
    }
}

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grow of the server in a directory (appendix A.3, {@link StoreGrowth}): it survives a restart at the new capacity,
 * and a kill -9 at each step of it leaves a store that opens, at the old k (the record not yet in place) or grown,
 * every written block reading back once the client has resynchronised where its state and the server's differ.
 */
class JournaledGrowTest {
    private static final int K = 3;
    private static final int B = 1;
    private static final int BLOCK = 48;
    private static final ServerParameters INITIAL = new ServerParameters(K, B, BLOCK);

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(31, BLOCK, 2);

    /** A store of 2^K blocks, every one written, a batch pending; the client's latest state kept. */
    private byte[][] filled(JournaledPorServer server) {
        byte[][] expected = new byte[1 << K][];
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, 20);
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] == null) {
                clients.writeRandom(client, expected, 1);
                i = -1; // until every index is written
            }
        }
        return expected;
    }

    private static byte[][] grown(byte[][] expected, int k) {
        return Arrays.copyOf(expected, 1 << k);
    }

    @Test
    void aGrownStoreReopensAtTheNewCapacityWithTheInitialKRequested() throws IOException {
        byte[][] expected;
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            expected = filled(server);
            PorClient client = clients.resume(server);
            client.grow(K + 1);
            assertThat(server.k()).isEqualTo(K + 1);
            expected = grown(expected, K + 1);
            clients.assertGoesOn(client, expected, 40); // over a C rebuild at the new k
        }
        assertThat(dir.resolve(StoreGrowth.FILE)).doesNotExist();
        assertThat(dir.resolve("c-" + (K + 1) + "-x.vectors")).doesNotExist(); // the old C's files are gone
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            assertThat(server.k()).isEqualTo(K + 1);
            clients.assertResumes(server, expected, 30);
        }
        assertThatThrownBy(() -> JournaledPorServer.open(dir, new ServerParameters(K + 2, B, BLOCK)))
                .isInstanceOf(IOException.class).hasMessageContaining("was created with");
    }

    @Test
    void aServerKilledOnceTheGrowIsRecordedGrowsAtItsNextOpenAndTheClientFollows() throws IOException {
        JournaledPorServer killed = JournaledPorServer.open(dir, INITIAL);
        byte[][] expected = filled(killed);
        ClientState before = clients.persisted.get(clients.persisted.size() - 1);
        JournaledClients.killedOnceRecorded(killed, clients.resume(killed, before), c -> c.grow(K + 1));
        assertThat(dir.resolve(StoreGrowth.FILE)).exists();
        // a crash in the middle of completing it: the parameters already grown, the tree and C's checksums torn
        ParametersFile.grow(dir.resolve("parameters"), K + 1);
        clients.garble(dir.resolve("u.merkle"));
        clients.garble(dir.resolve("c.sealed"));

        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            assertThat(server.k()).isEqualTo(K + 1);
            assertThat(dir.resolve(StoreGrowth.FILE)).doesNotExist();
            PorClient client = clients.resume(server, before); // the grow's answer never reached it
            client.resync();
            assertThat(client.state().k()).isEqualTo(K + 1);
            expected = grown(expected, K + 1);
            clients.assertGoesOn(client, expected, 30);
        }
    }

    @Test
    void aGrowCompletedAgainAfterAKillBeforeItsRecordWasDeletedChangesNothing() throws IOException {
        JournaledPorServer killed = JournaledPorServer.open(dir, INITIAL);
        byte[][] expected = filled(killed);
        // as if killed before the record's delete
        JournaledClients.resizedWithItsRecordPutBack(dir, killed, clients.resume(killed), c -> c.grow(K + 1), K + 1);

        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = clients.resume(server);
            client.resync();
            clients.assertContent(client, grown(expected, K + 1));
        }
    }

    @Test
    void aServerKilledWhileWritingTheRecordOpensAtTheOldCapacityAndTheClientGoesOn() throws IOException {
        JournaledPorServer killed = JournaledPorServer.open(dir, INITIAL);
        byte[][] expected = filled(killed);
        clients.resume(killed).flush(); // the writes on disk, as a pack's end leaves them
        killed.haltAsKilled();
        byte[] torn = new byte[100];
        clients.nextBytes(torn);
        Files.write(dir.resolve(StoreGrowth.FILE + ".tmp"), torn);

        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL)) {
            assertThat(server.k()).isEqualTo(K);
            assertThat(dir.resolve(StoreGrowth.FILE + ".tmp")).doesNotExist();
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            client.grow(K + 2);
            clients.assertContent(client, grown(expected, K + 2));
        }
    }

    @Test
    void aGrowBeyondTheOperatorsLimitIsRefusedAndChangesNothing() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL).limitGrowth(K + 1)) {
            byte[][] expected = filled(server);
            PorClient client = clients.resume(server);

            assertThatThrownBy(() -> client.grow(K + 2)).isInstanceOf(IllegalArgumentException.class);

            assertThat(server.k()).isEqualTo(K);
            assertThat(dir.resolve(StoreGrowth.FILE)).doesNotExist();
            clients.assertContent(client, expected);
        }
    }
}

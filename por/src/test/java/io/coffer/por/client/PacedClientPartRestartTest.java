package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.PorServer;
import io.coffer.por.store.JournaledPorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client restarted inside a window, from its persisted state (bytes, as a gateway reads them back), while its part
 * of C's rebuild is downloading U's checksums, encoding, uploading C's, or done: it starts its part again from index
 * 0, the first call after the restart running ceil(n (k + 5) / adds left) units, finishes before the switch, and every
 * block reads back and every audit passes in the window, after the switch and over the next epoch; in memory, and
 * with the durable server in files restarted with the client.
 */
class PacedClientPartRestartTest {
    private static final int K = 8;
    private static final int BLOCK = 32;

    private static final int ADDS = PacedCRebuild.addsToSwitch(K, 0);
    /** In the download, in the encoding, in the upload, at the last add before the switch, after the part is done. */
    private static final int[] RESTARTS = {2, ADDS / 2, ADDS - 3, ADDS - 1, ADDS + 1};

    @Test
    void aClientRestartedAtAnyPointOfItsPartRedoesItFromTheStartAndTheStorePassesItsAudits() {
        for (int restartAt : RESTARTS) {
            restartedAt(restartAt, new MemoryPorServer(K, BLOCK), same -> same);
        }
    }

    /**
     * The same with the durable server in files restarted with the client (closed and opened again in the window): it
     * resumes the window as one that takes the client's part and serves the same snapshot, which the restarted
     * client's root check passes.
     */
    @Test
    void overTheDurableServerRestartedWithTheClientThePartIsRedoneAndTheStorePassesItsAudits(@TempDir Path dir)
            throws IOException {
        for (int restartAt : RESTARTS) {
            Path at = dir.resolve("restart-" + restartAt);
            JournaledPorServer[] open = {JournaledPorServer.open(at, new ServerParameters(K, 0, BLOCK))};
            try {
                restartedAt(restartAt, open[0], before -> {
                    try {
                        open[0].close();
                        open[0] = JournaledPorServer.open(at, null);
                        return open[0];
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } finally {
                open[0].close();
            }
        }
    }

    /** Restarts the client (and, through {@code restart}, the server) at add {@code restartAt} of epoch 2's window. */
    private static void restartedAt(int restartAt, PorServer honest, UnaryOperator<PorServer> restart) {
        long total = PacedClientPart.totalUnits(K);
        SplittableRandom random = new SplittableRandom(restartAt);
        byte[][] saved = new byte[1][];
        PacedClientPartWorkTest.Counted server = new PacedClientPartWorkTest.Counted(honest, true);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                s -> saved[0] = s.toBytes());
        Map<Integer, byte[]> written = new HashMap<>();
        while (client.state().hLog().epoch() < 2) {
            write(client, random, written);
        }
        while (client.state().hLog().t() < restartAt) {
            write(client, random, written);
        }
        boolean pending = client.state().clientPartPending();
        assertThat(pending).as("restart at add %d", restartAt).isEqualTo(restartAt < ADDS);

        server = new PacedClientPartWorkTest.Counted(restart.apply(honest), true);
        PorClient restarted = new PorClient(server, ClientState.fromBytes(saved[0]), new SecureRandom(),
                s -> saved[0] = s.toBytes());
        assertThat(restarted.state()).isEqualTo(client.state());
        assertThat(restarted.audit().passed()).isTrue();
        server.reset();
        int t = restarted.state().hLog().t();
        write(restarted, random, written);
        if (pending) { // the first call after the restart: the share of all the units over the ADDS left
            long first = (total + (ADDS - t) - 1) / (ADDS - t);
            assertThat(server.opened).as("restart at add %d", restartAt).isEqualTo(Math.min(first, 1 << K));
        } else {
            assertThat(server.opened + server.sealed).isZero();
        }
        while (restarted.state().hLog().t() < ADDS) {
            write(restarted, random, written);
        }
        assertThat(restarted.state().clientPartPending()).isFalse();
        assertThat(restarted.audit().passed()).isTrue();
        while (restarted.state().hLog().epoch() < 3 || restarted.state().hLog().t() < ADDS) {
            write(restarted, random, written);
        }
        assertThat(restarted.audit().passed()).isTrue();
        written.forEach((index, block) -> assertThat(restarted.read(index)).isEqualTo(block));
    }

    private static void write(PorClient client, SplittableRandom random, Map<Integer, byte[]> written) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        int index = random.nextInt(1 << K);
        client.write(index, block);
        written.put(index, block);
    }
}

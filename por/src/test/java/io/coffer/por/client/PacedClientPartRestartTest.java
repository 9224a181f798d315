package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A client restarted inside a window, from its persisted state (bytes, as a gateway reads them back), while its part
 * of C's rebuild is downloading U's checksums, encoding, uploading C's, or done: it starts its part again from index
 * 0, the first call after the restart running ceil(n (k + 5) / adds left) units, finishes before the switch, and every
 * block reads back and every audit passes in the window, after the switch and over the next epoch.
 */
class PacedClientPartRestartTest {
    private static final int K = 8;
    private static final int BLOCK = 32;

    @Test
    void aClientRestartedAtAnyPointOfItsPartRedoesItFromTheStartAndTheStorePassesItsAudits() {
        int adds = PacedCRebuild.addsToSwitch(K, 0);
        long total = PacedClientPart.totalUnits(K);
        // in the download, in the encoding, in the upload, at the last add before the switch, after the part is done
        for (int restartAt : new int[] {2, adds / 2, adds - 3, adds - 1, adds + 1}) {
            SplittableRandom random = new SplittableRandom(restartAt);
            byte[][] saved = new byte[1][];
            PacedClientPartWorkTest.Counted server = new PacedClientPartWorkTest.Counted(new MemoryPorServer(K, BLOCK),
                    true);
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
            assertThat(pending).as("restart at add %d", restartAt).isEqualTo(restartAt < adds);

            PorClient restarted = new PorClient(server, ClientState.fromBytes(saved[0]), new SecureRandom(),
                    s -> saved[0] = s.toBytes());
            assertThat(restarted.state()).isEqualTo(client.state());
            assertThat(restarted.audit().passed()).isTrue();
            server.reset();
            int t = restarted.state().hLog().t();
            write(restarted, random, written);
            if (pending) { // the first call after the restart: the share of all the units over the adds left
                long first = (total + (adds - t) - 1) / (adds - t);
                assertThat(server.opened).as("restart at add %d", restartAt).isEqualTo(Math.min(first, 1 << K));
            } else {
                assertThat(server.opened + server.sealed).isZero();
            }
            while (restarted.state().hLog().t() < adds) {
                write(restarted, random, written);
            }
            assertThat(restarted.state().clientPartPending()).isFalse();
            assertThat(restarted.audit().passed()).isTrue();
            while (restarted.state().hLog().epoch() < 3 || restarted.state().hLog().t() < adds) {
                write(restarted, random, written);
            }
            assertThat(restarted.audit().passed()).isTrue();
            written.forEach((index, block) -> assertThat(restarted.read(index)).isEqualTo(block));
        }
    }

    private static void write(PorClient client, SplittableRandom random, Map<Integer, byte[]> written) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        int index = random.nextInt(1 << K);
        client.write(index, block);
        written.put(index, block);
    }
}

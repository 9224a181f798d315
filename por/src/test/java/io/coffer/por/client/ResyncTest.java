package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.code.LogState;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A client that crashed after the server applied its call, and before it persisted its own new state, comes back
 * with the older state: the server is ahead. Its next operation fails verification; {@link PorClient#resync} brings
 * both sides together again, and refuses a server that forges what it sends.
 */
class ResyncTest {
    private static final int K = 5;
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(17);
    private final List<ClientState> persisted = new ArrayList<>();
    private final byte[][] expected = new byte[1 << K][];

    private byte[] randomBlock() {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        return block;
    }

    private void write(PorClient client, int index) {
        byte[] block = randomBlock();
        client.write(index, block);
        expected[index] = block;
    }

    private void assertEverythingPasses(PorClient client) {
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
        for (int op = 0; op < 40; op++) { // over a C rebuild: H and C keep working after the resync
            write(client, random.nextInt(1 << K));
        }
        client.flush();
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
    }

    /** The client after a crash: the state it last persisted before {@code lost} ran on the server. */
    private PorClient crashedDuring(PorServer server, PorClient client, Runnable lost) {
        ClientState before = client.state();
        lost.run();
        return new PorClient(server, before, new SecureRandom(), persisted::add);
    }

    @Test
    void aServerOneWriteAheadFailsTheNextCheckUntilTheClientResyncs() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 11; i++) {
            write(client, random.nextInt(1 << K));
        }
        PorClient restarted = crashedDuring(server, client, () -> write(client, 3));

        assertThatThrownBy(() -> restarted.read(3)).isInstanceOf(PorVerificationException.class);
        assertThat(restarted.audit().passed()).isFalse();

        restarted.resync();

        assertThat(restarted.state().hLog()).isEqualTo(new LogState(K, 0, server.state().epoch()));
        assertThat(persisted.get(persisted.size() - 1)).isEqualTo(restarted.state());
        assertEverythingPasses(restarted);
    }

    @Test
    void aServerOneBatchAheadWithABatchPendingOnTheClientResyncs() {
        MemoryPorServer server = new MemoryPorServer(K, 2, BLOCK);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 9; i++) { // two batches and one block pending
            write(client, random.nextInt(1 << K));
        }
        PorClient restarted = crashedDuring(server, client, () -> {
            for (int i = 0; i < 3; i++) { // completes the pending batch: the server rebuilds a level of H
                write(client, random.nextInt(1 << K));
            }
        });
        assertThat(server.state().t()).isEqualTo(3);
        assertThat(restarted.state().hLog().t()).isEqualTo(2);

        // U's Merkle root moved on: every read fails (H's older level still passes its audit)
        assertThatThrownBy(() -> restarted.read(0)).isInstanceOf(PorVerificationException.class);
        restarted.resync();
        assertThat(server.pending()).isZero();
        assertEverythingPasses(restarted);
    }

    @Test
    void aServerAnEpochAheadResyncsBeyondBothEpochs() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < (1 << K) - 1; i++) {
            write(client, i);
        }
        // the epoch's last write: the server rebuilds its H level, then C, before the client persists anything
        PorClient restarted = crashedDuring(server, client, () -> write(client, (1 << K) - 1));
        assertThat(server.state().epoch()).isEqualTo(2);
        assertThat(restarted.state().hLog().epoch()).isEqualTo(1);

        restarted.resync();

        assertThat(restarted.state().hLog().epoch()).isEqualTo(3);
        assertEverythingPasses(restarted);
    }

    @Test
    void aResyncThatCrashedIsRedoneAtALaterEpoch() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        write(client, 1);
        PorClient restarted = crashedDuring(server, client, () -> write(client, 2));
        long[] sentEpoch = new long[1];
        PorServer dropsTheAnswer = new ForwardingPorServer(server) {
            @Override
            public void resync(long epoch, SealedLevel c) {
                super.resync(epoch, c);
                sentEpoch[0] = epoch;
                throw new IllegalStateException("connection lost"); // the client never learns it succeeded
            }
        };
        PorClient first = new PorClient(dropsTheAnswer, restarted.state(), new SecureRandom(), persisted::add);
        assertThatThrownBy(first::resync).hasMessageContaining("connection lost");

        ClientState reserved = persisted.get(persisted.size() - 1);
        assertThat(reserved.hLog().epoch()).isEqualTo(sentEpoch[0] - 1);
        PorClient second = new PorClient(server, reserved, new SecureRandom(), persisted::add);
        second.resync();
        assertThat(second.state().hLog().epoch()).isGreaterThan(sentEpoch[0]);
        assertEverythingPasses(second);
    }

    @Test
    void aServerThatForgesAChecksumInTheResyncIsRefused() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 6; i++) {
            write(client, i);
        }
        PorClient restarted = crashedDuring(server, client, () -> write(client, 6));
        boolean[] resynced = new boolean[1];
        PorServer forger = new ForwardingPorServer(server) {
            @Override
            public List<byte[]> sealedU() {
                List<byte[]> sealed = new ArrayList<>(inner.sealedU());
                byte[] forged = sealed.get(4).clone();
                forged[20] ^= 1;
                sealed.set(4, forged);
                return sealed;
            }

            @Override
            public void resync(long epoch, SealedLevel c) {
                resynced[0] = true;
                super.resync(epoch, c);
            }
        };
        PorClient lied = new PorClient(forger, restarted.state(), new SecureRandom(), persisted::add);
        assertThatThrownBy(lied::resync).isInstanceOf(PorVerificationException.class);
        assertThat(resynced[0]).isFalse();

        PorServer swapper = new ForwardingPorServer(server) {
            @Override
            public List<byte[]> sealedU() {
                List<byte[]> sealed = new ArrayList<>(inner.sealedU());
                sealed.set(4, sealed.get(5)); // block 5's genuine checksum at index 4
                return sealed;
            }
        };
        PorClient swapped = new PorClient(swapper, restarted.state(), new SecureRandom(), persisted::add);
        assertThatThrownBy(swapped::resync).isInstanceOf(PorVerificationException.class);
    }
}

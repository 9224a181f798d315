package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.code.LogState;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resizing (appendix A.3): a store of 2^k blocks grows to 2^(k+1) and beyond with one C rebuild at the new capacity;
 * every block written before reads back, the new indices hold the empty block, and writes, audits and repair work at
 * the new k, over later epochs.
 */
class GrowTest {
    private static final int K = 3;
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(23);
    private final List<ClientState> persisted = new ArrayList<>();
    private final List<byte[]> expected = new ArrayList<>();

    private void write(PorClient client, int index) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        client.write(index, block);
        while (expected.size() <= index) {
            expected.add(null);
        }
        expected.set(index, block);
    }

    private void assertEveryBlockReadsBack(PorClient client) {
        int n = 1 << client.state().k();
        for (int i = 0; i < n; i++) {
            byte[] want = i < expected.size() && expected.get(i) != null ? expected.get(i) : new byte[BLOCK];
            assertThat(client.read(i)).as("block %d of %d", i, n).isEqualTo(want);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aFullStoreGrowsAndEveryBlockReadsBackAtTheNewCapacity(int batchExponent) {
        MemoryPorServer server = new MemoryPorServer(K, batchExponent, BLOCK, K + 3);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 1 << K; i++) {
            write(client, i);
        }
        write(client, 5); // a batch pending with b = 2: its blocks are in U, which the new C encodes
        long epoch = client.state().hLog().epoch();

        client.grow(K + 1);

        assertThat(client.state().k()).isEqualTo(K + 1);
        assertThat(server.k()).isEqualTo(K + 1);
        assertThat(client.state().hLog()).isEqualTo(new LogState(K + 1 - batchExponent, 0,
                PorServer.MAX_EPOCH / 2 + epoch + 2));
        assertThat(client.state().root()).isEqualTo(server.storage().root()); // computed by the client alone
        assertThat(persisted.get(persisted.size() - 1)).isEqualTo(client.state());
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);

        for (int op = 0; op < 70; op++) { // the new indices, over C rebuilds at the new k
            write(client, random.nextInt(1 << (K + 1)));
        }
        client.flush();
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);

        client.grow(K + 3); // two doublings at once
        assertThat(client.state().k()).isEqualTo(K + 3);
        write(client, (1 << (K + 3)) - 1);
        client.flush();
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);
    }

    @Test
    void blocksLostAfterAGrowAreRepairedFromTheNewCode() {
        MemoryPorServer server = new MemoryPorServer(K, 1, BLOCK, K + 1);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        for (int i = 0; i < 1 << K; i++) {
            write(client, i);
        }
        client.grow(K + 1);
        write(client, 12);
        write(client, 13);
        client.flush();
        server.storage().setU(2, null); // from the C the grow built
        server.storage().u(12)[0] ^= 1; // from H at the new k

        assertThat(client.repairAll(List.of(2, 12))).isEmpty();

        assertEveryBlockReadsBack(client);
    }

    @Test
    void aGrowBeyondTheServersMaximumIsRefusedAndChangesNothing() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK, K + 1);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        write(client, 1);
        ClientState before = client.state();

        assertThatThrownBy(() -> client.grow(K + 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not k = " + (K + 2));
        assertThatThrownBy(() -> client.grow(K)).isInstanceOf(IllegalArgumentException.class);

        assertThat(client.state()).isEqualTo(before);
        assertThat(server.k()).isEqualTo(K);
        assertEveryBlockReadsBack(client);
    }

    @Test
    void aGrowWhoseAnswerWasLostIsFollowedByAResyncToTheNewCapacity() {
        MemoryPorServer server = new MemoryPorServer(K, 1, BLOCK, K + 2);
        PorServer answerLost = new ForwardingPorServer(server) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                super.resize(k, epoch, c);
                throw new IllegalStateException("connection reset");
            }
        };
        PorClient client = PorClient.initialize(answerLost, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 6; i++) {
            write(client, i);
        }
        ClientState before = client.state();
        assertThatThrownBy(() -> client.grow(K + 1)).hasMessageContaining("connection reset");
        assertThat(client.state()).isEqualTo(before); // the client does not know whether the server grew
        assertThat(server.k()).isEqualTo(K + 1);

        PorClient restarted = new PorClient(server, before, new SecureRandom(), persisted::add);
        restarted.resync();

        assertThat(restarted.state().k()).isEqualTo(K + 1);
        assertThat(restarted.state().hLog().epoch()).isEqualTo(server.state().epoch());
        assertThat(persisted.get(persisted.size() - 1)).isEqualTo(restarted.state());
        assertThat(restarted.audit().passed()).isTrue();
        assertEveryBlockReadsBack(restarted);
        for (int op = 0; op < 40; op++) {
            write(restarted, random.nextInt(1 << (K + 1)));
        }
        restarted.flush();
        assertThat(restarted.audit().passed()).isTrue();
        assertEveryBlockReadsBack(restarted);
    }

    /**
     * C's seal time at 2^k blocks is e * 2^(k+1): a grow seals its C beyond half the largest epoch, so no C of the
     * smaller capacity (epochs up to the largest) is ever sealed under its time, and a retried grow seals under a
     * new time, so the C of an attempt the server refused and kept cannot pass for the next attempt's.
     */
    @Test
    void aGrowSealsCBeyondEveryEpochOfTheSmallerCapacityAndARetryUnderANewTime() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK, K + 1);
        List<Long> epochs = new ArrayList<>();
        PorServer refusesOnce = new ForwardingPorServer(server) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                epochs.add(epoch);
                if (epochs.size() == 1) {
                    throw new IllegalStateException("refused");
                }
                super.resize(k, epoch, c);
            }
        };
        PorClient client = PorClient.initialize(refusesOnce, HonestServerTest.MASTER_KEY, new SecureRandom(),
                s -> { });
        write(client, 2);
        assertThatThrownBy(() -> client.grow(K + 1)).hasMessageContaining("refused");
        write(client, 3);

        client.grow(K + 1);

        assertThat(epochs).hasSize(2);
        assertThat(2 * epochs.get(0)).isGreaterThan(PorServer.MAX_EPOCH);
        assertThat(epochs.get(1)).isGreaterThan(epochs.get(0));
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);
        assertThat(StoreResize.resizeEpoch(PorServer.MAX_EPOCH / 2 + 9, 0)).isEqualTo(PorServer.MAX_EPOCH / 2 + 11);
    }
}

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Consolidation (appendix A.3): a store whose indices from 2^k on all hold the empty block (never written, or
 * deleted: written as zero) shrinks to 2^k blocks with one C rebuild there; every kept block reads back, audits,
 * writes over later epochs and a later grow work, and a shrink that would cut a block in use is refused.
 */
class ShrinkTest {
    private static final int K = 5;
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(31);
    private final List<ClientState> persisted = new ArrayList<>();
    private final byte[][] expected = new byte[1 << (K + 1)][];

    private void write(PorClient client, int index) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        client.write(index, block);
        expected[index] = block;
    }

    private void delete(PorClient client, int index) {
        client.write(index, new byte[BLOCK]);
        expected[index] = null;
    }

    private void assertEveryBlockReadsBack(PorClient client) {
        int n = 1 << client.state().k();
        for (int i = 0; i < n; i++) {
            assertThat(client.read(i)).as("block %d of %d", i, n)
                    .isEqualTo(expected[i] != null ? expected[i] : new byte[BLOCK]);
        }
    }

    /** A store of 2^K blocks: indices below 3/4 written, those from 2^(K-1) on deleted again (or never written). */
    private PorClient halfDeleted(PorServer server) {
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 3 << (K - 2); i++) {
            write(client, i);
        }
        for (int i = 1 << (K - 1); i < 3 << (K - 2); i++) {
            delete(client, i);
        }
        return client;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aStoreWhoseUpperHalfIsEmptyShrinksAndEveryKeptBlockReadsBack(int batchExponent) {
        MemoryPorServer server = new MemoryPorServer(K, batchExponent, BLOCK, K + 1);
        PorClient client = halfDeleted(server);
        write(client, 3); // with b = 2 a batch pending: its blocks are in U, which the new C encodes
        long epoch = client.state().hLog().epoch();

        client.shrink(K - 1);

        assertThat(client.state().k()).isEqualTo(K - 1);
        assertThat(server.k()).isEqualTo(K - 1);
        assertThat(client.state().hLog()).isEqualTo(new LogState(K - 1 - batchExponent, 0,
                StoreResize.resizeEpoch(epoch, 0)));
        assertThat(client.state().root()).isEqualTo(server.storage().root()); // computed by the client alone
        assertThat(persisted.get(persisted.size() - 1)).isEqualTo(client.state());
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);
        assertThatThrownBy(() -> client.read(1 << (K - 1))).isInstanceOf(IllegalArgumentException.class);

        for (int op = 0; op < 50; op++) { // over C rebuilds at the smaller k
            write(client, random.nextInt(1 << (K - 1)));
        }
        client.flush();
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);

        client.grow(K + 1); // the cut indices come back empty
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);
        write(client, (1 << (K + 1)) - 1);
        client.flush();
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void aShrinkOfTwoHalvingsAtOnceKeepsTheFirstQuarter() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK, K);
        PorClient client = halfDeleted(server);
        for (int i = 1 << (K - 2); i < 1 << (K - 1); i++) {
            delete(client, i);
        }

        client.shrink(K - 2);

        assertThat(server.k()).isEqualTo(K - 2);
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);
    }

    @Test
    void aShrinkIsRefusedWhileABlockAboveTheNewCapacityIsInUseAndChangesNothing() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK, K);
        PorClient client = halfDeleted(server);
        write(client, (1 << K) - 1); // the last index in use
        ClientState before = client.state();

        assertThatThrownBy(() -> client.shrink(K - 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("block " + ((1 << K) - 1) + " is in use");
        assertThatThrownBy(() -> client.shrink(K)).isInstanceOf(IllegalArgumentException.class);

        assertThat(client.state()).isEqualTo(before);
        assertThat(server.k()).isEqualTo(K);
        assertThat(client.audit().passed()).isTrue();
        assertEveryBlockReadsBack(client);
    }

    @Test
    void blocksLostAfterAShrinkAreRepairedFromTheNewCode() {
        MemoryPorServer server = new MemoryPorServer(K, 1, BLOCK, K);
        PorClient client = halfDeleted(server);
        client.shrink(K - 1);
        write(client, 12);
        write(client, 13);
        client.flush();
        server.storage().setU(2, null); // from the C the shrink built
        server.storage().u(12)[0] ^= 1; // from H at the new k

        assertThat(client.repairAll(List.of(2, 12))).isEmpty();

        assertEveryBlockReadsBack(client);
    }

    @Test
    void aShrinkWhoseAnswerWasLostIsFollowedOnlyByAResyncThatAllowsIt() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK, K);
        PorClient client = halfDeleted(server);
        ClientState before = client.state();
        client.shrink(K - 1); // applied; the client crashes before it records so
        PorClient restarted = new PorClient(server, before, new SecureRandom(), s -> { });

        assertThatThrownBy(restarted::resync).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("impossible log state");
        restarted.resync(K - 1);

        assertThat(restarted.state().k()).isEqualTo(K - 1);
        assertThat(restarted.audit().passed()).isTrue();
        assertEveryBlockReadsBack(restarted);
        write(restarted, 7);
        assertEveryBlockReadsBack(restarted);
    }

    @Test
    void aRefusedShrinkIsRetriedUnderANewEpoch() {
        MemoryPorServer honest = new MemoryPorServer(K, 0, BLOCK, K);
        List<Long> epochs = new ArrayList<>();
        boolean[] refuse = {true};
        PorClient client = halfDeleted(new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                epochs.add(epoch);
                if (refuse[0]) {
                    throw new IllegalStateException("refused");
                }
                super.resize(k, epoch, c);
            }
        });
        assertThatThrownBy(() -> client.shrink(K - 1)).hasMessage("refused");
        refuse[0] = false;

        client.shrink(K - 1);

        assertThat(epochs.get(1)).isGreaterThan(epochs.get(0));
        assertThat(client.audit().passed()).isTrue();
    }
}

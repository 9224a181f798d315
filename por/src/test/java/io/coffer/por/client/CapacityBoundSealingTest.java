package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LogState;
import io.coffer.por.merkle.MerkleTree;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A store made before C's and H's sealed checksums named the capacity (client state version 2: unbound) audits and
 * writes as before, over its epochs' C rebuilds, and its next resynchronisation or resize reseals C with k bound and
 * empties H: the state becomes bound (version 4) with no step of its own.
 */
class CapacityBoundSealingTest {
    private static final int K = 3;
    private static final int BLOCK = 32;

    @Test
    void aVersion2StoreAuditsAndWritesAsBeforeAndIsBoundAtItsNextResync() {
        MemoryPorServer server = new MemoryPorServer(K, 0, BLOCK);
        List<ClientState> persisted = new ArrayList<>();
        ClientState empty = new ClientState(BLOCK, 0, new LogState(K, 0, 0), 0,
                io.coffer.por.checksum.Checksum.zero(), HonestServerTest.MASTER_KEY, MerkleTree.emptyRoot(1 << K),
                false);
        PorClient client = new PorClient(server, empty, new SecureRandom(), persisted::add);
        // C as a version 2 client built it: sealed without k
        ChecksumSealer unbound = new ChecksumSealer(PorKeys.derive(HonestServerTest.MASTER_KEY).sealingKey(),
                new SecureRandom());
        server.rebuildC(CRebuildSimulation.encode(Collections.nCopies(1 << K, null), 0, new CodeParameters(K),
                unbound, client::neverWritten));
        ClientState version2 = empty.with(new LogState(K, 0, 1), 0, io.coffer.por.checksum.Checksum.zero(),
                empty.root());
        client = new PorClient(server, version2, new SecureRandom(), persisted::add);
        SplittableRandom random = new SplittableRandom(41);
        byte[][] blocks = new byte[1 << K][BLOCK];

        for (int i = 0; i < (1 << K) - 1; i++) { // H adds sealed unbound, the epoch not yet over
            random.nextBytes(blocks[i]);
            client.write(i, blocks[i]);
        }
        assertThat(client.state().capacityBound()).isFalse();
        assertThat(client.audit().passed()).isTrue();

        random.nextBytes(blocks[(1 << K) - 1]);
        client.write((1 << K) - 1, blocks[(1 << K) - 1]); // the epoch's last add: C rebuilt, still unbound
        assertThat(client.state().hLog().epoch()).isEqualTo(2);
        assertThat(client.state().capacityBound()).isFalse();
        // the in-process server paces that rebuild and the client's part of it: a window, and U's root of the
        // epoch's end, which only version 5 can say (flags bit 1: unbound, bit 2: the client's part pending)
        assertThat(client.state().window()).isTrue();
        assertThat(client.state().clientPartPending()).isTrue();
        assertThat(client.state().toBytes()[4]).isEqualTo((byte) 5);
        assertThat(ClientState.fromBytes(client.state().toBytes())).isEqualTo(client.state());
        assertThat(client.audit().passed()).isTrue();

        client.resync();

        assertThat(client.state().capacityBound()).isTrue();
        assertThat(client.state().toBytes()[4]).isEqualTo((byte) 4);
        assertThat(persisted.get(persisted.size() - 1)).isEqualTo(client.state());
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < 1 << K; i++) {
            assertThat(client.read(i)).isEqualTo(blocks[i]);
        }
        client.write(0, blocks[1]);
        assertThat(client.audit().passed()).isTrue();
        assertThat(PorClientAccess.auditThrough(server, client).passed()).isTrue();
    }
}

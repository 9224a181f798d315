package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.server.LeafProof;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Runs of writes over paths fetched together ({@link PorClient#prefetchPaths}): no LEAF request for a block of the
 * run, and the roots they give are the server's (every block reads back verified, every audit passes), through
 * overwrites within a run, writes outside it, C rebuilds and runs that overlap.
 */
class PrefetchedPathsTest {
    @Test
    void writesOverPrefetchedPathsAskForNoLeafAndKeepTheServersRoot() {
        int k = 8;
        int blockBytes = 24;
        MemoryPorServer honest = new MemoryPorServer(k, 2, blockBytes);
        AtomicInteger leafCalls = new AtomicInteger();
        ForwardingPorServer counting = new ForwardingPorServer(honest) {
            @Override
            public LeafProof leaf(int index) {
                leafCalls.incrementAndGet();
                return inner.leaf(index);
            }

            @Override
            public List<LeafProof> leaves(List<Integer> indices) {
                return inner.leaves(indices); // the run's paths, together: not counted
            }
        };
        PorClient client = PorClient.initialize(counting, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        byte[][] expected = new byte[1 << k][];
        SplittableRandom random = new SplittableRandom(3);
        int outside = 0;
        for (int run = 0; run < 60; run++) {
            List<Integer> indices = new ArrayList<>();
            int start = random.nextInt(1 << k);
            for (int i = 0; i < 1 + random.nextInt(12); i++) {
                indices.add((start + i * (1 + random.nextInt(3))) % (1 << k));
            }
            client.prefetchPaths(indices);
            for (int index : indices) {
                byte[] block = new byte[blockBytes];
                if (random.nextInt(8) != 0) {
                    random.nextBytes(block); // else a delete: the zero block
                }
                client.write(index, block);
                expected[index] = block;
                if (random.nextInt(4) == 0) { // a write outside the run asks the server for its leaf
                    int other = random.nextInt(1 << k);
                    byte[] b = new byte[blockBytes];
                    random.nextBytes(b);
                    client.write(other, b);
                    expected[other] = b;
                    outside++;
                }
            }
            client.flush();
            assertThat(client.audit().passed()).isTrue();
        }
        client.forgetPaths();
        assertThat(leafCalls.get()).as("only the writes outside a run asked for their leaf").isLessThanOrEqualTo(outside);
        assertThat(client.state().hLog().epoch()).as("C was rebuilt on the way").isGreaterThan(1);
        for (int i = 0; i < 1 << k; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[blockBytes] : expected[i]);
        }
    }
}

package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Damaged U is decoded by the server from C and H, checked by the client, and put back. */
class RepairTest {
    @Test
    void thirtyPercentOfULostOrCorruptedIsRepairedFromCAndH() {
        int k = 8;
        int blockBytes = 48;
        MemoryPorServer server = new MemoryPorServer(k, blockBytes);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(3);
        byte[][] expected = new byte[1 << k][];
        // one full epoch (C holds every block) and then 200 more writes spread over H's levels
        for (int op = 0; op < 256 + 200; op++) {
            int index = op < 256 ? op : random.nextInt(1 << k);
            byte[] block = new byte[blockBytes];
            random.nextBytes(block);
            client.write(index, block);
            expected[index] = block;
        }
        List<Integer> damaged = new ArrayList<>();
        for (int i = 0; i < 1 << k; i++) {
            if (random.nextInt(10) < 3) {
                damaged.add(i);
                if (random.nextBoolean()) {
                    server.storage().setU(i, null); // lost
                } else {
                    server.storage().u(i)[random.nextInt(blockBytes)] ^= 0x10; // corrupted in place
                }
            }
        }
        assertThat(damaged.size()).isBetween(50, 110);
        for (int i : damaged) {
            assertThatThrownBy(() -> client.read(i)).isInstanceOf(RuntimeException.class);
        }
        assertThat(client.audit().passed()).isTrue(); // audits check C and H, which are whole

        client.repair(damaged);

        for (int i = 0; i < 1 << k; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i]);
        }
    }

    @Test
    void repairAllDecodesOnceForEveryBlockAndLeavesOutOnlyTheOneThatFailsItsCheck() {
        int k = 8;
        int blockBytes = 48;
        MemoryPorServer server = new MemoryPorServer(k, blockBytes);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(4);
        byte[][] expected = new byte[1 << k][blockBytes];
        for (int op = 0; op < 256 + 150; op++) { // C holds an epoch, H the writes since
            int index = op < 256 ? op : random.nextInt(1 << k);
            random.nextBytes(expected[index]);
            client.write(index, expected[index].clone());
        }
        List<Integer> damaged = new ArrayList<>();
        for (int i = 0; i < 1 << k; i += 3) {
            damaged.add(i);
            server.storage().u(i)[random.nextInt(blockBytes)] ^= 0x20;
        }
        int forged = damaged.get(40);
        int[] calls = new int[2]; // prepares, decodes
        List<Integer> prepared = new ArrayList<>();
        ForwardingPorServer counting = new ForwardingPorServer(server) {
            @Override
            public void prepareDecode(List<Integer> indices) {
                calls[0]++;
                prepared.addAll(indices);
                inner.prepareDecode(indices);
            }

            @Override
            public List<io.coffer.por.server.ProvenBlock> decode(List<Integer> indices) {
                calls[1]++;
                List<io.coffer.por.server.ProvenBlock> out = new ArrayList<>(inner.decode(indices));
                for (int i = 0; i < out.size(); i++) {
                    if (out.get(i).index() == forged) { // one block altered by the server
                        byte[] block = out.get(i).block().clone();
                        block[0] ^= 1;
                        out.set(i, new io.coffer.por.server.ProvenBlock(forged, block, out.get(i).sealedChecksum(),
                                out.get(i).proof()));
                    }
                }
                return out;
            }
        };
        PorClient repairing = new PorClient(counting, client.state(), new SecureRandom(), s -> { });
        List<Integer> asked = new ArrayList<>(damaged);
        asked.add(damaged.get(0)); // a repeat is ignored

        assertThat(repairing.repairAll(asked)).containsExactly(forged);

        assertThat(calls[0]).as("one prepared decode for the set").isEqualTo(1);
        assertThat(prepared).isEqualTo(damaged);
        assertThat(calls[1]).as("fetched in pages of 64").isEqualTo((damaged.size() + 63) / 64);
        for (int i = 0; i < 1 << k; i++) {
            if (i == forged) {
                int index = i;
                assertThatThrownBy(() -> repairing.read(index)).isInstanceOf(PorVerificationException.class);
            } else {
                assertThat(repairing.read(i)).as("block %d", i).isEqualTo(expected[i]);
            }
        }
        assertThat(client.repairAll(List.of(forged))).as("the honest server's decode repairs it").isEmpty();
        assertThat(repairing.read(forged)).isEqualTo(expected[forged]);
        assertThat(repairing.repairAll(List.of())).isEmpty();
    }

    @Test
    void aBlockNeverWrittenRepairsToZero() {
        MemoryPorServer server = new MemoryPorServer(4, 16);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        client.write(1, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        server.storage().setU(1, null);
        assertThatThrownBy(() -> client.read(1)).isInstanceOf(IllegalStateException.class);
        client.repair(List.of(1, 2));
        assertThat(client.read(1)[15]).isEqualTo((byte) 16);
        assertThat(client.read(2)).isEqualTo(new byte[16]);
    }

    @Test
    void repairOfAnUndamagedBlockIsHarmlessAndAForgedOneIsRefused() {
        MemoryPorServer server = new MemoryPorServer(4, 16);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        byte[] block = new byte[16];
        block[3] = 3;
        client.write(0, block);
        client.repair(List.of(0));
        assertThat(client.read(0)).isEqualTo(block);
        assertThatThrownBy(() -> client.repair(List.of(16))).isInstanceOf(IllegalArgumentException.class);
        // the server's answer for another index than asked is refused
        ForwardingPorServer swapped = new ForwardingPorServer(server) {
            @Override
            public java.util.List<io.coffer.por.server.ProvenBlock> decode(List<Integer> indices) {
                return inner.decode(List.of(indices.get(0) + 1));
            }
        };
        PorClient cheated = new PorClient(swapped, client.state(), new SecureRandom(), s -> { });
        assertThatThrownBy(() -> cheated.repair(List.of(0))).isInstanceOf(PorVerificationException.class);
    }
}

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

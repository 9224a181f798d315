package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The honest server over many operations: every read verifies and returns what was written, every audit passes. */
class HonestServerTest {
    static final byte[] MASTER_KEY = new byte[32];

    static {
        new SplittableRandom(42).nextBytes(MASTER_KEY);
    }

    @Test
    void tenThousandRandomWritesOverwritesAndDeletesPassEveryAudit() {
        int k = 10;
        int blockBytes = 24;
        MemoryPorServer server = new MemoryPorServer(k, blockBytes);
        List<ClientState> persisted = new ArrayList<>();
        PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
        byte[][] expected = new byte[1 << k][];
        SplittableRandom random = new SplittableRandom(1);
        int audits = 0;
        int deletes = 0;
        int overwrites = 0;
        for (int op = 1; op <= 10_000; op++) {
            // a small hot set makes overwrites frequent
            int index = random.nextInt(4) == 0 ? random.nextInt(16) : random.nextInt(1 << k);
            byte[] block = new byte[blockBytes];
            if (random.nextInt(10) == 0) {
                deletes++; // a delete writes the zero block (appendix A.3)
            } else {
                random.nextBytes(block);
            }
            if (expected[index] != null) {
                overwrites++;
            }
            client.write(index, block);
            expected[index] = block;
            int probe = random.nextInt(1 << k);
            assertThat(client.read(probe)).isEqualTo(expected[probe] == null ? new byte[blockBytes] : expected[probe]);
            if (op % 250 == 0) {
                AuditVerdict verdict = client.audit();
                assertThat(verdict.passed()).as("audit after %d writes: %s", op, verdict.reason()).isTrue();
                audits++;
            }
        }
        assertThat(audits).isEqualTo(40);
        assertThat(deletes).isGreaterThan(500);
        assertThat(overwrites).isGreaterThan(5_000);
        for (int i = 0; i < 1 << k; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[blockBytes] : expected[i]);
        }
        // 10,000 writes = 9 epochs of 1024 plus 784: C was rebuilt at initialisation and 9 times since
        assertThat(client.state().hLog().epoch()).isEqualTo(10);
        assertThat(client.state().hLog().t()).isEqualTo(10_000 - 9 * 1024);
        assertThat(persisted.get(persisted.size() - 1)).isEqualTo(client.state());
    }

    @Test
    void aClientResumedFromItsPersistedStateCarriesOn() {
        MemoryPorServer server = new MemoryPorServer(6, 40);
        List<ClientState> persisted = new ArrayList<>();
        PorClient first = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
        byte[] block = new byte[40];
        for (int i = 0; i < 45; i++) {
            block[0] = (byte) i;
            first.write(i % 50, block.clone());
        }
        ClientState saved = ClientState.fromBytes(persisted.get(persisted.size() - 1).toBytes());
        PorClient resumed = new PorClient(server, saved, new SecureRandom(), s -> { });
        for (int i = 45; i < 100; i++) {
            block[0] = (byte) i;
            resumed.write(i % 50, block.clone());
        }
        assertThat(resumed.audit().passed()).isTrue();
        assertThat(resumed.read(49)[0]).isEqualTo((byte) 99);
        assertThat(resumed.read(60)).isEqualTo(new byte[40]);
    }
}

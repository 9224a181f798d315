package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Blocks prepared before their index is known (on other threads), then written: reads verify, audits pass. */
class PreparedWritesTest {

    @Test
    void blocksPreparedOnSeveralThreadsAndWrittenAtTheirIndicesLaterVerifyAndPassTheAudit() throws Exception {
        int k = 8;
        int blockBytes = 240;
        MemoryPorServer server = new MemoryPorServer(k, blockBytes);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(7);
        byte[][] blocks = new byte[1 << k][blockBytes];
        for (byte[] b : blocks) {
            random.nextBytes(b);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<PorClient.Prepared>> prepared = new ArrayList<>();
        try {
            for (byte[] b : blocks) {
                prepared.add(pool.submit(() -> client.prepare(b)));
            }
            // written in reverse: a prepared block carries no index until it is written
            for (int i = blocks.length - 1; i >= 0; i--) {
                client.write(i, prepared.get(i).get());
            }
        } finally {
            pool.shutdown();
        }

        for (int i = 0; i < blocks.length; i++) {
            assertThat(client.read(i)).as("U[%d]", i).isEqualTo(blocks[i]);
        }
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void aPreparedBlockWrittenAtAnotherIndexThanTheRawOneReadsTheSame() {
        MemoryPorServer server = new MemoryPorServer(6, 48);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        byte[] block = new byte[48];
        new SplittableRandom(3).nextBytes(block);

        client.write(5, client.prepare(block));
        client.write(9, block);

        assertThat(client.read(5)).isEqualTo(block);
        assertThat(client.read(9)).isEqualTo(block);
        assertThat(server.sealedU().get(5)).isNotEqualTo(server.sealedU().get(9));
    }

    @Test
    void aBlockOfTheWrongSizeIsRefusedWhenPrepared() {
        MemoryPorServer server = new MemoryPorServer(6, 48);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });

        assertThatThrownBy(() -> client.prepare(new byte[47])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("47 bytes");
    }
}

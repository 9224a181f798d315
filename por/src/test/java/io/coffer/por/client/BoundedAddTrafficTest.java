package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * With H deamortised, the client's sealed-checksum traffic per H add is bounded by O(k - b) checksums whatever level
 * the add merges into (HAdd downloaded and re-sealed whole levels: the add that filled level l moved 2^(l+1)
 * checksums each way).
 */
class BoundedAddTrafficTest {
    private static final int BLOCK = 16;

    @Test
    void theLargestAddOfAnEpochMovesAtMostAFewChecksumsPerLevel() {
        SplittableRandom random = new SplittableRandom(41);
        for (int[] kb : new int[][] {{8, 0}, {10, 0}, {12, 0}, {10, 2}}) {
            int k = kb[0];
            int b = kb[1];
            int hK = k - b;
            MemoryPorServer server = new MemoryPorServer(k, b, BLOCK);
            PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
            long uUp = 4 + ChecksumSealer.SEALED_BYTES; // the index and U's new sealed checksum
            long uDown = ChecksumSealer.SEALED_BYTES + 32L * k; // U's old sealed checksum and its path
            long worstUp = 0;
            long worstDown = 0;
            byte[] block = new byte[BLOCK];
            for (int write = 1; write < 1 << k; write++) { // the whole epoch but the write that rebuilds C
                random.nextBytes(block);
                client.traffic().reset();
                client.write(random.nextInt(1 << k), block);
                worstUp = Math.max(worstUp, client.traffic().overheadUp() - uUp);
                worstDown = Math.max(worstDown, client.traffic().overheadDown() - uDown);
            }
            // an add writes 1 + 2 (k - b - 1) vectors and reads at most 2 (k - b - 1), both parts sealed, 48 bytes each
            long perVector = 2L * ChecksumSealer.SEALED_BYTES;
            assertThat(worstUp).as("k = %d, b = %d", k, b).isLessThanOrEqualTo(8 + perVector * (1 + 2L * (hK - 1)));
            assertThat(worstDown).as("k = %d, b = %d", k, b).isLessThanOrEqualTo(8 + perVector * 2L * (hK - 1));
            // the bound is nearly reached: the deepest merges of the epoch do overlap
            assertThat(worstUp).isGreaterThan(perVector * hK);
        }
    }
}

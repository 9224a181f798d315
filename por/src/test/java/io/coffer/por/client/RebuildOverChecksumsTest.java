package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.store.ServerStorage;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Section 5.4's premise, end to end: the checksums the client computes by simulating each rebuild (and seals) equal
 * the checksums of the code blocks the server computes over the data, for every level up to n = 2^16 and for C.
 * Blocks are 8 bytes (3 elements and the tag) so 2^16 writes run in seconds.
 */
class RebuildOverChecksumsTest {
    @Test
    void everyLevelUpToTwoToTheSixteenthAndCMatchTheirSimulatedChecksums() {
        int k = 16;
        int blockBytes = 8;
        MemoryPorServer server = new MemoryPorServer(k, blockBytes);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        PorKeys keys = PorKeys.derive(HonestServerTest.MASTER_KEY);
        ChecksumKey blockKey = ChecksumKey.derive(keys.checksumKey(), Segments.count(blockBytes) + 1);
        ChecksumKey batchKey = ChecksumKey.derive(keys.batchChecksumKey(), Segments.count(blockBytes) + 1);
        ChecksumSealer sealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom());
        SplittableRandom random = new SplittableRandom(16);
        byte[] block = new byte[blockBytes];
        for (int i = 0; i < (1 << k) - 1; i++) {
            random.nextBytes(block);
            client.write(random.nextInt(1 << k), block);
        }
        LogState log = client.state().hLog();
        assertThat(log.t()).isEqualTo((1 << k) - 1); // levels 0..15 all filled
        for (int level = 0; level < k; level++) {
            assertThat(log.filled(level)).isTrue();
            assertLevelMatches(server.storage(), batchKey, sealer, level, SealClock.levelTime(log, level));
        }
        random.nextBytes(block);
        client.write(0, block); // the 2^16-th write fills level 16, then C is rebuilt over all of U
        LogState after = client.state().hLog();
        assertThat(after.t()).isZero();
        assertLevelMatches(server.storage(), blockKey, sealer, new CodeParameters(k).cLevel(),
                SealClock.cTime(after.epoch(), k));
    }

    private static void assertLevelMatches(ServerStorage storage, ChecksumKey key, ChecksumSealer sealer, int level,
            long time) {
        boolean isC = level == storage.cParameters().cLevel();
        MemoryLevelStore vectors = isC ? storage.cVectors() : storage.hVectors();
        int size = isC ? storage.n() : storage.hParameters().partSize(level);
        int[] v = new int[vectors.width()];
        int mismatches = 0;
        for (Part part : Part.values()) {
            byte[][] sealed = isC ? storage.sealedC(part) : storage.sealedH(level, part);
            for (int j = 0; j < size; j++) {
                vectors.read(level, part, j, v);
                BlockAddress address = isC ? BlockAddress.c(part, j) : BlockAddress.h(level, part, j);
                if (!key.checksum(v).equals(sealer.open(address, time, sealed[j]))) {
                    mismatches++;
                }
            }
        }
        assertThat(mismatches).as("level %d", level).isZero();
    }
}

package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.store.ServerStorage;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Section 5.4's premise, end to end: the checksums the client computes by simulating each deamortised add (and seals)
 * equal the checksums of the code blocks the server computes over the data, for every run of H up to n = 2^16 and
 * for C.
 * Blocks are 8 bytes (3 elements and the tag) so 2^16 writes run in seconds.
 */
class RebuildOverChecksumsTest {
    @Test
    void everyRunUpToTwoToTheSixteenthAndCMatchTheirSimulatedChecksums() {
        int k = 16;
        int blockBytes = 8;
        MemoryPorServer server = new MemoryPorServer(k, blockBytes);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        PorKeys keys = PorKeys.derive(HonestServerTest.MASTER_KEY);
        ChecksumKey blockKey = ChecksumKey.derive(keys.checksumKey(), Segments.count(blockBytes) + 1);
        ChecksumKey batchKey = ChecksumKey.derive(keys.batchChecksumKey(), Segments.count(blockBytes) + 1);
        ChecksumSealer sealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom()).boundTo(k);
        SplittableRandom random = new SplittableRandom(16);
        byte[] block = new byte[blockBytes];
        for (int i = 0; i < (1 << k) - 1; i++) {
            random.nextBytes(block);
            client.write(random.nextInt(1 << k), block);
            if (i == (1 << (k - 1)) + DeamortizedSchedule.delay(k - 1)) { // a level-15 run just complete
                assertThat(DeamortizedSchedule.runs(k, i + 1).get(0).level()).isEqualTo(k - 1);
                assertRunsMatch(server.storage(), batchKey, sealer, client.state().hLog());
            }
        }
        LogState log = client.state().hLog();
        assertThat(log.t()).isEqualTo((1 << k) - 1);
        assertRunsMatch(server.storage(), batchKey, sealer, log);
        random.nextBytes(block);
        client.write(0, block); // the 2^16-th write, then C is rebuilt over all of U
        LogState after = client.state().hLog();
        assertThat(after.t()).isZero();
        for (long i = 0; i < PacedCRebuild.stepsToComplete(k); i++) { // the paced rebuild's window, to its switch
            random.nextBytes(block);
            client.write(random.nextInt(1 << k), block);
        }
        assertThat(server.windowProgress()).isNull();
        assertLevelMatches(server.storage(), blockKey, sealer, new CodeParameters(k).cLevel(),
                SealClock.cTime(after.epoch(), k));
    }

    private static void assertLevelMatches(ServerStorage storage, ChecksumKey key, ChecksumSealer sealer, int level,
            long time) {
        MemoryLevelStore vectors = storage.cVectors();
        int[] v = new int[vectors.width()];
        int mismatches = 0;
        for (Part part : Part.values()) {
            byte[][] sealed = storage.sealedC(part);
            for (int j = 0; j < storage.n(); j++) {
                vectors.read(level, part, j, v);
                if (!key.checksum(v).equals(sealer.open(BlockAddress.c(part, j), time, sealed[j]))) {
                    mismatches++;
                }
            }
        }
        assertThat(mismatches).as("C").isZero();
    }

    /**
     * Every vector of every current run of H (each write of the epoch in one) matches the client's sealed checksum
     * of its position, opened under the time of the add that wrote it.
     */
    static void assertRunsMatch(ServerStorage storage, ChecksumKey key, ChecksumSealer sealer, LogState h) {
        MemoryLevelStore vectors = storage.hVectors();
        int[] v = new int[vectors.width()];
        long epochTime = SealClock.hEpochTime(h.epoch(), h.k());
        int checked = 0;
        int mismatches = 0;
        for (LogRun run : DeamortizedSchedule.runs(h.k(), h.t())) {
            for (int i = 0; i < run.size(); i++) {
                DeamortizedSchedule.Vector at =
                        new DeamortizedSchedule.Vector(run.level(), run.start() >> run.level(), i);
                for (Part part : Part.values()) {
                    vectors.read(run.level(), part, at.position(), v);
                    BlockAddress address = BlockAddress.h(run.level(), part, at.position());
                    byte[] sealed = storage.sealedH(run.level(), part, at.position());
                    if (!key.checksum(v).equals(sealer.open(address, epochTime + at.writtenAt(), sealed))) {
                        mismatches++;
                    }
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(2 * h.t());
        assertThat(mismatches).as("vectors of H's runs").isZero();
    }
}

package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.JournaledPorServer;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a server that paces the client's part of C's rebuild, the write that ends an epoch downloads and uploads no
 * checksum of U or C, and every write of the window opens and seals at most the part's share
 * (ceil(n (k + 5) / adds to the switch) units, one more for a pair of sealings; {@link PacedClientPart}) with the bytes that go with it; every window's part
 * is complete before its switch and the audits pass. Without it, the epoch's end moves all n and 2n checksums.
 */
class PacedClientPartWorkTest {
    private static final int BLOCK = 32;

    /** Counts the checksums each call of the client's part moves, and the one-shot path's calls. */
    static final class Counted extends PacesClientPart {
        long opened;
        long sealed;
        long bytesDown;
        long bytesUp;
        int sealedUCalls;
        int rebuildCCalls;
        int rebuildCPacedCalls;
        private final boolean pacesPart;

        Counted(PorServer inner, boolean pacesPart) {
            super(inner);
            this.pacesPart = pacesPart;
        }

        void reset() {
            opened = 0;
            sealed = 0;
            bytesDown = 0;
            bytesUp = 0;
        }

        @Override
        public boolean pacesClientPart() {
            return pacesPart && inner.pacesClientPart();
        }

        @Override
        public List<byte[]> snapshotSealedU(int from, int count) {
            List<byte[]> part = inner.snapshotSealedU(from, count);
            opened += part.size();
            part.forEach(s -> bytesDown += s == null ? 0 : s.length);
            return part;
        }

        @Override
        public void putNextSealedC(int from, byte[][] x, byte[][] y) {
            sealed += x.length + y.length;
            bytesUp += (long) (x.length + y.length) * ChecksumSealer.SEALED_BYTES;
            inner.putNextSealedC(from, x, y);
        }

        @Override
        public List<byte[]> sealedU() {
            sealedUCalls++;
            List<byte[]> all = inner.sealedU();
            opened += all.size();
            return all;
        }

        @Override
        public void rebuildC(SealedLevel c) {
            rebuildCCalls++;
            sealed += 2L * c.partSize();
            inner.rebuildC(c);
        }

        @Override
        public void rebuildCPaced() {
            rebuildCPacedCalls++;
            inner.rebuildCPaced();
        }
    }

    @Test
    void everyWriteOfThreeEpochsOpensAndSealsAtMostItsShareAndTheEpochsEndNoneAtKEightToTwelve() {
        for (int k = 8; k <= 12; k += 2) {
            assertPacedOverThreeEpochs(new Counted(new MemoryPorServer(k, BLOCK), true), k);
        }
    }

    /** The same bounds over the durable server in a directory (JournaledPorServer, files), which paces the part too. */
    @Test
    void overTheDurableServerTheEpochsEndMovesNoChecksumAndEachWindowMovesNAndTwoN(@TempDir Path dir)
            throws IOException {
        int k = 8;
        try (JournaledPorServer journaled = JournaledPorServer.open(dir, new ServerParameters(k, 0, BLOCK))) {
            assertThat(journaled.pacesClientPart()).isTrue();
            assertPacedOverThreeEpochs(new Counted(journaled, true), k);
        }
    }

    private static void assertPacedOverThreeEpochs(Counted server, int k) {
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        // the sealings go by pairs (X and Y of a position), so a share may seal one checksum more
        long share = ceil(PacedClientPart.totalUnits(k), PacedCRebuild.addsToSwitch(k, 0)) + 1;
        SplittableRandom random = new SplittableRandom(k);
        long worstChecksums = 0;
        long worstBytes = 0;
        long epochEnds = 0;
        for (int epoch = 1; epoch <= 3; epoch++) {
            long openedInEpoch = 0;
            long sealedInEpoch = 0;
            for (int write = 0; write < 1 << k; write++) {
                server.reset();
                client.traffic().reset();
                int sealedUBefore = server.sealedUCalls;
                client.write(random.nextInt(1 << k), block(random));
                openedInEpoch += server.opened;
                sealedInEpoch += server.sealed;
                worstChecksums = Math.max(worstChecksums, server.opened + server.sealed);
                worstBytes = Math.max(worstBytes, server.bytesDown + server.bytesUp);
                assertThat(server.sealedUCalls).isEqualTo(sealedUBefore);
                if (client.state().hLog().t() == 0) { // the write that ended the epoch
                    epochEnds++;
                    assertThat(server.opened + server.sealed).as("the epoch's end at k = %d", k).isZero();
                    assertThat(client.traffic().overhead()).as("the epoch's end's bytes at k = %d", k)
                            .isLessThan((long) ChecksumSealer.SEALED_BYTES << k);
                    assertThat(client.state().clientPartPending()).isTrue();
                }
                if (client.state().hLog().t() >= PacedCRebuild.addsToSwitch(k, 0)) {
                    assertThat(client.state().clientPartPending()).as("after the switch at k = %d", k).isFalse();
                }
            }
            if (epoch > 1) { // the window of the epoch that ended the former one: all of U down, all of C up
                assertThat(openedInEpoch).isEqualTo(1L << k);
                assertThat(sealedInEpoch).isEqualTo(2L << k);
            }
            assertThat(client.audit().passed()).isTrue();
        }
        assertThat(epochEnds).isEqualTo(3);
        assertThat(server.rebuildCPacedCalls).isEqualTo(3);
        assertThat(server.rebuildCCalls).as("only the initialisation's").isEqualTo(1);
        assertThat(worstChecksums).as("k = %d", k).isLessThanOrEqualTo(share).isLessThan(1L << k);
        assertThat(worstBytes).as("k = %d", k).isLessThanOrEqualTo(share * ChecksumSealer.SEALED_BYTES);
    }

    @Test
    void withBatchesAndFlushesThePartFollowsTheAddsLeftAndCompletesBeforeTheSwitch() {
        int k = 10;
        int b = 2;
        Counted server = new Counted(new MemoryPorServer(k, b, BLOCK), true);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        long share = ceil(PacedClientPart.totalUnits(k), PacedCRebuild.addsToSwitch(k, b)) + 1;
        SplittableRandom random = new SplittableRandom(3);
        long worst = 0;
        int windows = 0;
        while (windows < 2) {
            server.reset();
            boolean pendingBefore = client.state().clientPartPending();
            if (random.nextInt(5) == 0) {
                client.flush(); // an add with fewer than 2^b writes: the part must keep up with adds, not writes
            } else {
                client.write(random.nextInt(1 << k), block(random));
            }
            worst = Math.max(worst, server.opened + server.sealed);
            if (pendingBefore && !client.state().clientPartPending()) {
                windows++;
                assertThat(client.state().hLog().t()).isLessThan(PacedCRebuild.addsToSwitch(k, b));
            }
        }
        assertThat(worst).isLessThanOrEqualTo(share);
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void withOneAddAnEpochTheWindowsFirstCallRunsAllOfThePart() {
        int k = 6; // b = k: the epoch's one add is its switch, so nothing is left to pace the part over
        Counted server = new Counted(new MemoryPorServer(k, k, BLOCK), true);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        assertThat(PacedCRebuild.addsToSwitch(k, k)).isEqualTo(1);
        SplittableRandom random = new SplittableRandom(9);
        while (!client.state().clientPartPending()) {
            client.write(random.nextInt(1 << k), block(random));
        }
        server.reset();
        client.write(random.nextInt(1 << k), block(random));
        assertThat(server.opened).isEqualTo(1L << k);
        assertThat(server.sealed).isEqualTo(2L << k);
        assertThat(client.state().clientPartPending()).isFalse();
        long epoch = client.state().hLog().epoch();
        while (client.state().hLog().epoch() == epoch) { // the add that switches ends the epoch too
            client.write(random.nextInt(1 << k), block(random));
        }
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void withoutTheClientsPartPacedTheEpochsEndMovesAllOfUAndC() {
        int k = 8;
        Counted server = new Counted(new MemoryPorServer(k, BLOCK), false);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(5);
        for (int write = 1; write < 1 << k; write++) {
            client.write(random.nextInt(1 << k), block(random));
        }
        server.reset();
        client.write(0, block(random));
        assertThat(client.state().hLog().t()).isZero();
        assertThat(client.state().window()).isTrue();
        assertThat(client.state().clientPartPending()).isFalse();
        assertThat(server.opened).isEqualTo(1L << k);
        assertThat(server.sealed).isEqualTo(2L << k);
        assertThat(client.audit().passed()).isTrue();
    }

    private static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }

    private static byte[] block(SplittableRandom random) {
        byte[] b = new byte[BLOCK];
        random.nextBytes(b);
        return b;
    }
}

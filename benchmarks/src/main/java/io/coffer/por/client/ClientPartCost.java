package io.coffer.por.client;

import io.coffer.benchmarks.por.PacedRebuildCost;
import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.merkle.MerkleRootStream;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the client's part of a C rebuild costs its worst write: at the epoch's end at once (U's n sealed checksums
 * down, their root, the encoding, C's 2n sealed and up: {@link CRebuildSimulation}, as {@code PacedRebuildCost}'s
 * client lines) against paced over the window ({@link PacedClientPart}: a share per call over the adds to the
 * switch). Rounds alternate the two over the same n sealed checksums of random checksums; each paced round's C is
 * opened and checked against the one-shot's. In this package (the benchmarks module's only one outside
 * io.coffer.benchmarks) because the part is the client's internal class; the server it talks to serves the snapshot
 * from memory and keeps the uploads, so only the client's CPU is timed (thread CPU of each call).
 *
 * <p>Usage: {@code java -Xmx3g -cp "benchmarks/target/classes:benchmarks/target/lib/*"
 * io.coffer.por.client.ClientPartCost ROUNDS B K...} (e.g. {@code 3 0 16 20}).
 */
public final class ClientPartCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ClientPartCost() {
    }

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        int b = Integer.parseInt(args[1]);
        for (int i = 2; i < args.length; i++) {
            measure(Integer.parseInt(args[i]), b, rounds);
        }
    }

    private static void measure(int k, int b, int rounds) {
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        ChecksumSealer sealer = new ChecksumSealer(new byte[32], new SecureRandom());
        List<byte[]> snapshot = Arrays.asList(PacedRebuildCost.randomSealedU(sealer, k));
        byte[] root = MerkleRootStream.of(snapshot);
        int adds = PacedCRebuild.addsToSwitch(k, b);
        long epoch = 2;
        System.out.printf(Locale.ROOT, "k = %d, b = %d: %d units over %d calls (share %d)%n", k, b,
                PacedClientPart.totalUnits(k), adds, (PacedClientPart.totalUnits(k) + adds - 1) / adds);
        for (int round = -1; round < rounds; round++) {
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            byte[] checkRoot = MerkleRootStream.of(snapshot);
            SealedLevel oneShot = CRebuildSimulation.encode(snapshot, epoch - 1, params, sealer, ClientPartCost::none);
            double oneShotMs = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6;
            long oneShotDown = (long) n * ChecksumSealer.SEALED_BYTES + (n + 7) / 8;
            long oneShotUp = oneShot.wireBytes();

            Snapshot server = new Snapshot(k, snapshot);
            Traffic traffic = new Traffic();
            long[] cpu = new long[adds];
            long made = THREADS.getCurrentThreadCpuTime();
            // made in the window's first call, as PorClient makes it: timed with that call
            PacedClientPart part = new PacedClientPart(server, traffic, params, sealer, ClientPartCost::none, root,
                    epoch);
            cpu[0] = THREADS.getCurrentThreadCpuTime() - made;
            long worstBytes = 0;
            boolean done = false;
            for (int call = 0; call < adds && !done; call++) {
                traffic.reset();
                long t0 = THREADS.getCurrentThreadCpuTime();
                done = part.step(adds - call);
                cpu[call] += THREADS.getCurrentThreadCpuTime() - t0;
                worstBytes = Math.max(worstBytes, traffic.overhead());
            }
            if (!done || !Arrays.equals(checkRoot, root)) {
                throw new IllegalStateException("the paced part did not complete by the switch");
            }
            long total = Arrays.stream(cpu).sum();
            int worstCall = 0;
            for (int call = 1; call < adds; call++) {
                worstCall = cpu[call] > cpu[worstCall] ? call : worstCall;
            }
            long[] sorted = cpu.clone();
            Arrays.sort(sorted);
            check(server, oneShot, sealer, epoch, k);
            if (round >= 0) {
                System.out.printf(Locale.ROOT, "round %d one-shot: cpu %.0f ms, down %.1f MiB, up %.1f MiB in one"
                        + " write | paced: cpu %.0f ms in all, per call median %.1f us, p99 %.1f us, max %.1f us"
                        + " (call %d of %d); bytes per call at most %d%n", round, oneShotMs, oneShotDown / 1048576.0,
                        oneShotUp / 1048576.0, total / 1e6, sorted[adds / 2] / 1e3,
                        sorted[(int) (adds * 0.99)] / 1e3, sorted[adds - 1] / 1e3, worstCall, adds, worstBytes);
            }
        }
    }

    /** The paced C, opened, equals the one-shot's. */
    private static void check(Snapshot server, SealedLevel oneShot, ChecksumSealer sealer, long epoch, int k) {
        long time = SealClock.cTime(epoch, k);
        for (Part part : Part.values()) {
            byte[][] paced = server.next[part.ordinal()];
            byte[][] expected = oneShot.part(part); // a copy: taken once
            for (int j = 0; j < paced.length; j++) {
                BlockAddress address = BlockAddress.c(part, j);
                if (!sealer.open(address, time, paced[j]).equals(sealer.open(address, time, expected[j]))) {
                    throw new IllegalStateException("the paced C differs from the one-shot's at " + address);
                }
            }
        }
    }

    private static Checksum none(int index) {
        throw new IllegalStateException("every index is written");
    }

    /** Serves U's sealed checksums of the epoch's end from memory and keeps the next C's: nothing else. */
    private static final class Snapshot implements PorServer {
        private final int k;
        private final List<byte[]> sealedU;
        private final byte[][][] next;

        Snapshot(int k, List<byte[]> sealedU) {
            this.k = k;
            this.sealedU = sealedU;
            this.next = new byte[2][1 << k][];
        }

        @Override
        public List<byte[]> snapshotSealedU(int from, int count) {
            return sealedU.subList(from, from + count);
        }

        @Override
        public void putNextSealedC(int from, byte[][] x, byte[][] y) {
            System.arraycopy(x, 0, next[0], from, x.length);
            System.arraycopy(y, 0, next[1], from, y.length);
        }

        @Override
        public int blockBytes() {
            return 4096;
        }

        @Override
        public int k() {
            return k;
        }

        @Override
        public int batchExponent() {
            return 0;
        }

        @Override
        public ProvenBlock read(int index) {
            throw outside();
        }

        @Override
        public LeafProof leaf(int index) {
            throw outside();
        }

        @Override
        public SealedVectors sealedInputs(int count) {
            throw outside();
        }

        @Override
        public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
            throw outside();
        }

        @Override
        public void flush(SealedVectors written) {
            throw outside();
        }

        @Override
        public List<byte[]> sealedU() {
            throw outside();
        }

        @Override
        public void rebuildC(SealedLevel c) {
            throw outside();
        }

        @Override
        public AuditResponse audit(AuditChallenge challenge) {
            throw outside();
        }

        @Override
        public List<ProvenBlock> decode(List<Integer> indices) {
            throw outside();
        }

        @Override
        public void restore(int index, byte[] block) {
            throw outside();
        }

        private static UnsupportedOperationException outside() {
            return new UnsupportedOperationException("the benchmark serves only the client's paced part");
        }
    }
}

package io.coffer.benchmarks.por;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditPlanner;
import io.coffer.por.audit.AuditProver;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.audit.AuditVerifier;
import io.coffer.por.audit.AuditedRegion;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.client.PorClient;
import io.coffer.por.client.PorKeys;
import io.coffer.por.client.SealClock;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The PoR's audit and write costs against the paper's Figures 5, 6, 8 and 10.
 *
 * <p><b>Audits</b>, n = 2^kmin .. 2^kmax blocks of 4 KiB, lambda = 128, in the worst state (t = n - 1: every level
 * 0..k-1 filled, plus C): the server's time to build the answer (AuditProver: read the sampled code blocks, B* =
 * sum r_i B_i, collect the sealed checksums), the client's time (AuditPlanner: draw the challenge; AuditVerifier: open
 * every sealed checksum, sum r_i sigma_i, sigma(B*)) and the bytes both ways. A store of 2^20 blocks of 4 KiB would
 * need over 16 GiB of memory for U, C and H, so the code blocks come from a pool of {@value #POOL} random 4 KiB
 * vectors (address hashed to a pool entry, so reads are spread over 70 MiB of memory, not cached) whose sealed
 * checksums are made by the benchmark, untimed, under the real keys, addresses and times. Times are in-memory CPU
 * time of one thread, no disk (the paper's Figure 8 is mostly disk I/O). Median of ROUNDS audits per n.
 *
 * <p><b>Writes</b>, n = 2^kmin .. 2^wkmax: a real {@link PorClient} and {@link MemoryPorServer} write one whole epoch
 * (n writes of random blocks, so every level is rebuilt as often as in the long run, and C once) and count the bytes
 * besides the block itself: Merkle path and U's sealed checksum, the sealed checksums of the levels each write merges
 * and of the level it fills, C's rebuild amortised. The block size does not change these bytes, so 8-byte blocks keep
 * the run short; the percentage is of a 4 KiB block. Beside it: a plain Merkle tree over the blocks (the path, 32 * k
 * bytes per write).
 *
 * <p>Run, after {@code mvn -B -q -DskipTests -pl benchmarks -am package}: {@code java -Xmx3g -cp
 * "benchmarks/target/classes:benchmarks/target/lib/*" io.coffer.benchmarks.por.AuditCost [KMIN KMAX WKMAX ROUNDS]}
 * (default 10 20 16 20).
 */
public final class AuditCost {
    private static final int BLOCK_BYTES = 4096;
    private static final int POOL = 16384;

    private AuditCost() {
    }

    public static void main(String[] args) {
        int kMin = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int kMax = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int writeKMax = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        byte[] master = new byte[32];
        new SecureRandom().nextBytes(master);
        audits(master, kMin, kMax, rounds);
        System.out.println();
        writes(master, kMin, writeKMax);
    }

    private static void audits(byte[] master, int kMin, int kMax, int rounds) {
        PorKeys keys = PorKeys.derive(master);
        int width = Segments.count(BLOCK_BYTES) + 1;
        ChecksumKey key = ChecksumKey.derive(keys.checksumKey(), width);
        ChecksumSealer dealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom());
        ChecksumSealer clientSealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom());
        SplittableRandom random = new SplittableRandom(8);
        int[][] pool = new int[POOL][];
        Checksum[] poolSigma = new Checksum[POOL];
        for (int i = 0; i < POOL; i++) {
            int[] elements = new int[width - 1];
            for (int e = 0; e < elements.length; e++) {
                elements[e] = random.nextInt(Zp.P);
            }
            pool[i] = BlockTag.tag(elements, i);
            poolSigma[i] = key.checksum(pool[i]);
        }
        System.out.println("Audit, 4 KiB blocks, lambda = 128, every level filled (t = n - 1); median of " + rounds
                + " audits; one thread, in memory");
        System.out.println("| n | blocks sampled | server ms | client ms | client->server KiB | server->client KiB |"
                + " total KiB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (int k = kMin; k <= kMax; k += 2) {
            LogState state = new LogState(k, (1 << k) - 1, 1);
            List<AuditedRegion> regions = new ArrayList<>();
            regions.add(AuditedRegion.c(2L << k, SealClock.cTime(state)));
            for (int level = 0; level < k; level++) {
                regions.add(AuditedRegion.level(level, SealClock.levelTime(state, level)));
            }
            double[] server = new double[rounds];
            double[] client = new double[rounds];
            long up = 0;
            long down = 0;
            int sampled = 0;
            AuditPlanner planner = new AuditPlanner(AuditPlanner.DEFAULT_LAMBDA, new SecureRandom());
            AuditVerifier verifier = new AuditVerifier(key, clientSealer);
            for (int round = -10; round < rounds; round++) { // ten unmeasured rounds warm the JIT
                long c0 = System.nanoTime();
                AuditPlanner.Plan plan = planner.plan(regions);
                long c1 = System.nanoTime();
                AuditChallenge challenge = plan.challenge();
                Map<BlockAddress, byte[]> sealed = new HashMap<>();
                for (int i = 0; i < challenge.size(); i++) { // the dealer, untimed: what the server would hold
                    BlockAddress a = challenge.addresses().get(i);
                    sealed.put(a, dealer.seal(a, plan.writeTime(i), poolSigma[slot(a)]));
                }
                long s0 = System.nanoTime();
                AuditResponse response = AuditProver.prove(challenge, width, new AuditProver.CodeBlocks() {
                    @Override
                    public int[] block(BlockAddress address) {
                        return pool[slot(address)];
                    }

                    @Override
                    public byte[] sealedChecksum(BlockAddress address) {
                        return sealed.get(address);
                    }
                });
                long s1 = System.nanoTime();
                AuditVerdict verdict = verifier.verify(plan, response);
                long c2 = System.nanoTime();
                if (!verdict.passed()) {
                    throw new IllegalStateException("honest audit failed: " + verdict.reason());
                }
                if (round >= 0) {
                    server[round] = (s1 - s0) / 1e6;
                    client[round] = ((c1 - c0) + (c2 - s1)) / 1e6;
                    up = challenge.wireBytes();
                    down = response.wireBytes();
                    sampled = challenge.size();
                }
            }
            System.out.printf(Locale.ROOT, "| 2^%d | %d | %.2f | %.2f | %.1f | %.1f | %.1f |%n", k, sampled,
                    median(server), median(client), up / 1024.0, down / 1024.0, (up + down) / 1024.0);
        }
    }

    private static int slot(BlockAddress a) {
        long h = a.index() * 0x9E3779B97F4A7C15L + a.level() * 0xC2B2AE3D27D4EB4FL + a.part().ordinal() * 31L
                + a.buffer().ordinal();
        return (int) ((h ^ (h >>> 29)) & (POOL - 1));
    }

    private static void writes(byte[] master, int kMin, int kMax) {
        System.out.println("Write bandwidth overhead per block (bytes besides the block), averaged over one epoch of n"
                + " writes; % of a 4 KiB block");
        System.out.println("| n | PoR bytes/write | of which U (path + checksum) | of which H and C | PoR % of 4 KiB |"
                + " Merkle tree bytes/write | Merkle % of 4 KiB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (int k = kMin; k <= kMax; k += 2) {
            int n = 1 << k;
            MemoryPorServer server = new MemoryPorServer(k, 8);
            PorClient client = PorClient.initialize(server, master, new SecureRandom(), s -> { });
            client.traffic().reset();
            SplittableRandom random = new SplittableRandom(k);
            byte[] block = new byte[8];
            for (int i = 0; i < n; i++) {
                random.nextBytes(block);
                client.write(random.nextInt(n), block);
            }
            double perWrite = (double) client.traffic().overhead() / n;
            // U's part of a write: the old leaf (48) and its path (32 k) down, index (4) and sealed checksum (48) up
            double uPart = 48 + 32.0 * k + 4 + 48;
            double merkle = 32.0 * k;
            System.out.printf(Locale.ROOT, "| 2^%d | %.0f | %.0f | %.0f | %.1f %% | %.0f | %.1f %% |%n", k, perWrite,
                    uPart, perWrite - uPart, 100 * perWrite / BLOCK_BYTES, merkle, 100 * merkle / BLOCK_BYTES);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}

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
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import io.coffer.por.server.MemoryPorServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The PoR's audit and write costs against the paper's Figures 5, 6, 8 and 10, without write batching and with batches
 * of 2^B blocks per H vector (section 6.1).
 *
 * <p><b>Audits</b>, n = 2^kmin .. 2^kmax blocks of 4 KiB, lambda = 128, in the worst state (every level of H filled,
 * plus C): the server's time to build the answers (AuditProver: read the sampled code vectors, B* = sum r_i B_i,
 * collect the sealed checksums; one answer for C, one for H) and the client's time (AuditPlanner: draw the challenge;
 * AuditVerifier: open every sealed checksum, sum r_i sigma_i, sigma(B*)) and the bytes both ways. A store of 2^20
 * blocks of 4 KiB would need over 16 GiB of memory for U, C and H, so the code vectors come from a pool of
 * {@value #POOL} random blocks (or POOL / 2^B batches; the address hashed to a pool entry, so reads are spread over
 * 70 MiB of memory) whose sealed checksums are made by the benchmark, untimed, under the real keys, addresses and
 * times. Times are the CPU time of the one thread doing both sides (ThreadMXBean, so load from other processes
 * distorts them far less than wall time), in memory, no disk (the paper's Figure 8 is mostly disk I/O). Median of
 * ROUNDS audits per n.
 *
 * <p><b>Writes</b>, n = 2^kmin .. 2^wkmax: a real {@link PorClient} and {@link MemoryPorServer} write one whole epoch
 * (n writes of random blocks, so every level is rebuilt as often as in the long run, and C once) and count the bytes
 * besides the block itself: Merkle path and U's sealed checksum, the sealed checksums of the levels each H add merges
 * and of the level it fills, C's rebuild amortised. The block size does not change these bytes, so 8-byte blocks keep
 * the run short; the percentage is of a 4 KiB block. Beside it: a plain Merkle tree over the blocks (the path, 32 * k
 * bytes per write).
 *
 * <p>Run, after {@code mvn -B -q -DskipTests -pl benchmarks -am package}: {@code java -Xmx3g -cp
 * "benchmarks/target/classes:benchmarks/target/lib/*" io.coffer.benchmarks.por.AuditCost [KMIN KMAX WKMAX ROUNDS B]}
 * (default 10 20 16 20 4).
 */
public final class AuditCost {
    private static final int BLOCK_BYTES = 4096;
    private static final int POOL = 16384;
    /** CPU time of this thread: far less disturbed than wall time by other load on a shared machine. */
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private AuditCost() {
    }

    public static void main(String[] args) {
        int kMin = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int kMax = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int writeKMax = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        int batch = args.length > 4 ? Integer.parseInt(args[4]) : 4;
        byte[] master = new byte[32];
        new SecureRandom().nextBytes(master);
        for (int b : new int[] {0, batch}) {
            audits(master, kMin, kMax, rounds, b);
            System.out.println();
        }
        for (int b : new int[] {0, batch}) {
            writes(master, kMin, writeKMax, b);
            System.out.println();
        }
    }

    /** Random code vectors of one width with their checksums: what the sampled addresses are mapped to. */
    private record Pool(int[][] vectors, Checksum[] checksums) {
        static Pool of(int count, int width, ChecksumKey key, SplittableRandom random) {
            int[][] vectors = new int[count][width];
            Checksum[] checksums = new Checksum[count];
            for (int i = 0; i < count; i++) {
                for (int e = 0; e < width; e++) {
                    vectors[i][e] = random.nextInt(Zp.P);
                }
                checksums[i] = key.checksum(vectors[i]);
            }
            return new Pool(vectors, checksums);
        }
    }

    private static void audits(byte[] master, int kMin, int kMax, int rounds, int b) {
        PorKeys keys = PorKeys.derive(master);
        int width = Segments.count(BLOCK_BYTES) + 1;
        ChecksumKey blockKey = ChecksumKey.derive(keys.checksumKey(), width);
        ChecksumKey batchKey = ChecksumKey.derive(keys.batchChecksumKey(), width << b);
        ChecksumSealer dealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom());
        ChecksumSealer clientSealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom());
        SplittableRandom random = new SplittableRandom(8);
        Pool blocks = Pool.of(POOL, width, blockKey, random);
        Pool batches = b == 0 ? null : Pool.of(POOL >> b, width << b, batchKey, random);
        System.out.println("Audit, 4 KiB blocks, " + (1 << b) + " block(s) per H vector, lambda = 128, every run of"
                + " the epoch's last add; median of " + rounds + " audits; thread CPU time, in memory");
        System.out.println("| n | code vectors sampled | server ms | client ms | client->server KiB |"
                + " server->client KiB | total KiB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        AuditPlanner planner = new AuditPlanner(AuditPlanner.DEFAULT_LAMBDA, new SecureRandom());
        for (int k = kMin; k <= kMax; k += 2) {
            LogState h = new LogState(k - b, (1 << (k - b)) - 1, 1);
            List<AuditedRegion> cRegion = List.of(AuditedRegion.c(2L << k, SealClock.cTime(h.epoch(), k)));
            List<AuditedRegion> hRegions = new ArrayList<>();
            long epochTime = SealClock.hEpochTime(h.epoch(), h.k());
            for (LogRun run : DeamortizedSchedule.runs(h.k(), h.t())) {
                hRegions.add(AuditedRegion.run(run.level(), run.start() >> run.level(), epochTime));
            }
            double[] server = new double[rounds];
            double[] client = new double[rounds];
            long[] bytes = new long[3];
            for (int round = -10; round < rounds; round++) { // ten unmeasured rounds warm the JIT
                long[] t = new long[2];
                bytes[0] = 0;
                bytes[1] = 0;
                bytes[2] = 0;
                audit(planner, cRegion, blocks, blockKey, dealer, clientSealer, t, bytes);
                audit(planner, hRegions, b == 0 ? blocks : batches, b == 0 ? blockKey : batchKey, dealer,
                        clientSealer, t, bytes);
                if (round >= 0) {
                    server[round] = t[0] / 1e6;
                    client[round] = t[1] / 1e6;
                }
            }
            System.out.printf(Locale.ROOT, "| 2^%d | %d | %.2f | %.2f | %.1f | %.1f | %.1f |%n", k, bytes[2],
                    median(server), median(client), bytes[0] / 1024.0, bytes[1] / 1024.0,
                    (bytes[0] + bytes[1]) / 1024.0);
        }
    }

    /** One challenge over {@code regions}; adds server and client nanoseconds to t, bytes up, down, samples. */
    private static void audit(AuditPlanner planner, List<AuditedRegion> regions, Pool pool, ChecksumKey key,
            ChecksumSealer dealer, ChecksumSealer clientSealer, long[] t, long[] bytes) {
        long c0 = CPU.getCurrentThreadCpuTime();
        AuditPlanner.Plan plan = planner.plan(regions);
        long c1 = CPU.getCurrentThreadCpuTime();
        AuditChallenge challenge = plan.challenge();
        Map<BlockAddress, byte[]> sealed = new HashMap<>();
        for (int i = 0; i < challenge.size(); i++) { // the dealer, untimed: what the server would hold
            BlockAddress a = challenge.addresses().get(i);
            sealed.put(a, dealer.seal(a, plan.writeTime(i), pool.checksums()[slot(a, pool.vectors().length)]));
        }
        long s0 = CPU.getCurrentThreadCpuTime();
        AuditResponse response = AuditProver.prove(challenge, key.width(), new AuditProver.CodeBlocks() {
            @Override
            public int[] block(BlockAddress address) {
                return pool.vectors()[slot(address, pool.vectors().length)];
            }

            @Override
            public byte[] sealedChecksum(BlockAddress address) {
                return sealed.get(address);
            }
        });
        long s1 = CPU.getCurrentThreadCpuTime();
        AuditVerdict verdict = new AuditVerifier(key, clientSealer).verify(plan, response);
        long c2 = CPU.getCurrentThreadCpuTime();
        if (!verdict.passed()) {
            throw new IllegalStateException("honest audit failed: " + verdict.reason());
        }
        t[0] += s1 - s0;
        t[1] += (c1 - c0) + (c2 - s1);
        bytes[0] += challenge.wireBytes();
        bytes[1] += response.wireBytes();
        bytes[2] += challenge.size();
    }

    private static int slot(BlockAddress a, int poolSize) {
        long h = a.index() * 0x9E3779B97F4A7C15L + a.level() * 0xC2B2AE3D27D4EB4FL + a.part().ordinal() * 31L
                + a.buffer().ordinal();
        return (int) ((h ^ (h >>> 29)) & (poolSize - 1));
    }

    private static void writes(byte[] master, int kMin, int kMax, int b) {
        System.out.println("Write bandwidth overhead per block (bytes besides the block), " + (1 << b) + " block(s)"
                + " per H add, averaged over one epoch of n writes; % of a 4 KiB block");
        System.out.println("| n | PoR bytes/write | of which U (path + checksum) | of which H and C | PoR % of 4 KiB |"
                + " Merkle tree bytes/write | Merkle % of 4 KiB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (int k = kMin; k <= kMax; k += 2) {
            int n = 1 << k;
            MemoryPorServer server = new MemoryPorServer(k, b, 8);
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

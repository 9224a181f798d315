package io.coffer.benchmarks.por;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.code.VectorSource;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleRootStream;
import io.coffer.por.merkle.MerkleTree;
import io.coffer.por.store.DirectoryStorage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * What a C rebuild costs the write that waits for it, one-shot (today's epoch end) against paced
 * ({@link PacedCRebuild}: a share per write over half an epoch), and what the client's part of a C rebuild costs.
 *
 * <p>Server part, 4 KiB blocks in memory (no disk: the code's CPU only): rounds alternate one-shot and paced over the
 * same U; for each, the thread's CPU time of the whole rebuild, and for the paced one the wall time of its slowest
 * step (a write's share) and the median step. Client part, over sealed checksums at 2^k blocks: the Merkle root of U's
 * n sealed checksums ({@link MerkleRootStream}; the former {@link MerkleTree#set} per leaf beside it), opening them,
 * the CRebuild simulation over 20-byte checksums, sealing C's 2n; the bytes it moves (n sealed checksums and a bitmap
 * down, 2n up).
 *
 * <p>Usage: {@code java -Xmx3g -cp "benchmarks/target/classes:benchmarks/target/lib/*"
 * io.coffer.benchmarks.por.PacedRebuildCost SERVER_K ROUNDS CLIENT_K_FROM CLIENT_K_TO} (e.g. {@code 14 3 16 20});
 * {@code -Dcoffer.por.files=true} puts C in the embedded server's files ({@link DirectoryStorage} in a temporary
 * directory) instead of memory.
 */
public final class PacedRebuildCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private PacedRebuildCost() {}

    public static void main(String[] args) throws IOException {
        int serverK = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int clientFrom = Integer.parseInt(args[2]);
        int clientTo = Integer.parseInt(args[3]);
        server(serverK, rounds);
        for (int k = clientFrom; k <= clientTo; k++) {
            client(k);
        }
    }

    private static void server(int k, int rounds) throws IOException {
        if (!Boolean.getBoolean("coffer.por.files")) {
            server(k, rounds, new MemoryLevelStore(new CodeParameters(k), PorMixBenchmark.WIDTH), "in memory");
            return;
        }
        Path dir = Files.createTempDirectory("paced-rebuild");
        try (DirectoryStorage storage = DirectoryStorage.open(dir, k, 0, PorMixBenchmark.BLOCK_BYTES,
                PorMixBenchmark.WIDTH)) {
            server(k, rounds, storage.cVectors(), "C in the server's files (page cache, no force)");
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void server(int k, int rounds, LevelStore store, String where) {
        CodeParameters params = new CodeParameters(k);
        int[][] u = PorMixBenchmark.randomVectors(new SplittableRandom(7), params.n());
        VectorSource source = (i, into) -> System.arraycopy(u[i], 0, into, 0, into.length);
        double mib = (double) PorMixBenchmark.BLOCK_BYTES * params.n() / (1 << 20);
        System.out.printf(Locale.ROOT, "server: k = %d, %d blocks of %d bytes (%.0f MiB of U), %s, %d units, %d per"
                + " write over %d writes%n", k, params.n(), PorMixBenchmark.BLOCK_BYTES, mib, where,
                PacedCRebuild.totalUnits(k), PacedCRebuild.unitsPerStep(k), PacedCRebuild.stepsToComplete(k));
        for (int round = -1; round < rounds; round++) {
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            long wall0 = System.nanoTime();
            new HierarchicalLog(params, store, LogState.empty(k)).rebuildC(source);
            double oneShotCpu = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6;
            double oneShotWall = (System.nanoTime() - wall0) / 1e6;

            PacedCRebuild paced = new PacedCRebuild(params, source, store, params.cLevel());
            long steps = PacedCRebuild.stepsToComplete(k);
            long[] stepNanos = new long[(int) steps];
            cpu0 = THREADS.getCurrentThreadCpuTime();
            for (int s = 1; s <= steps; s++) {
                long t0 = System.nanoTime();
                paced.advanceTo(s);
                stepNanos[s - 1] = System.nanoTime() - t0;
            }
            double pacedCpu = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6;
            Arrays.sort(stepNanos);
            if (round >= 0) {
                System.out.printf(Locale.ROOT, "round %d one-shot: cpu %.0f ms wall %.0f ms (one write waits for it)"
                        + " | paced: cpu %.0f ms in all, step median %.1f us, p99 %.1f us, max %.1f us%n", round,
                        oneShotCpu, oneShotWall, pacedCpu, stepNanos[stepNanos.length / 2] / 1e3,
                        stepNanos[(int) (stepNanos.length * 0.99)] / 1e3, stepNanos[stepNanos.length - 1] / 1e3);
            }
        }
    }

    /** U's 2^k sealed checksums of random checksums (seeded by k), as {@code sealer} seals U's. */
    public static byte[][] randomSealedU(ChecksumSealer sealer, int k) {
        SplittableRandom random = new SplittableRandom(k);
        byte[][] sealedU = new byte[1 << k][];
        for (int i = 0; i < sealedU.length; i++) {
            int[] rows = new int[Checksum.ROWS];
            for (int r = 0; r < rows.length; r++) {
                rows[r] = random.nextInt(1 << 30);
            }
            sealedU[i] = sealer.sealU(i, Checksum.of(rows));
        }
        return sealedU;
    }

    private static void client(int k) {
        CodeParameters params = new CodeParameters(k);
        int n = params.n();
        ChecksumSealer sealer = new ChecksumSealer(new byte[32], new SecureRandom());
        byte[][] sealedU = randomSealedU(sealer, k);
        long cpuTree = THREADS.getCurrentThreadCpuTime();
        MerkleTree tree = new MerkleTree(n);
        for (int i = 0; i < n; i++) {
            tree.set(i, MerkleHash.leaf(sealedU[i]));
        }
        double treeMs = (THREADS.getCurrentThreadCpuTime() - cpuTree) / 1e6;
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        byte[] root = MerkleRootStream.of(Arrays.asList(sealedU));
        double merkleMs = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6;
        if (!Arrays.equals(root, tree.root())) {
            throw new IllegalStateException("the streamed root differs from the tree's");
        }
        long cpu1 = THREADS.getCurrentThreadCpuTime();
        MemoryLevelStore store = new MemoryLevelStore(params, Checksum.ROWS);
        new HierarchicalLog(params, store, LogState.empty(k)).rebuildC(
                (i, into) -> System.arraycopy(sealer.openU(i, sealedU[i]).rows(), 0, into, 0, Checksum.ROWS));
        double encodeMs = (THREADS.getCurrentThreadCpuTime() - cpu1) / 1e6;
        long cpu2 = THREADS.getCurrentThreadCpuTime();
        long sealedBytes = 0;
        int[] vector = new int[Checksum.ROWS];
        for (Part part : Part.values()) {
            for (int j = 0; j < n; j++) {
                store.read(params.cLevel(), part, j, vector);
                sealedBytes += sealer.seal(BlockAddress.c(part, j), 1, Checksum.of(vector)).length;
            }
        }
        double sealMs = (THREADS.getCurrentThreadCpuTime() - cpu2) / 1e6;
        long down = (long) n * ChecksumSealer.SEALED_BYTES + (n + 7) / 8;
        System.out.printf(Locale.ROOT, "client: k = %d: cpu %.0f ms (Merkle root %.0f, open + encode %.0f,"
                + " seal C %.0f); down %.1f MiB, up %.1f MiB; the root by MerkleTree.set per leaf instead: %.0f ms"
                + " (root %02x..)%n", k, merkleMs + encodeMs + sealMs, merkleMs, encodeMs, sealMs, down / 1048576.0,
                sealedBytes / 1048576.0, treeMs, root[0]);
    }
}

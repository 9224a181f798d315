package io.coffer.benchmarks.por;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumKernels;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.field.Segments;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The client's share of a PoR PUT per block, in the thread's CPU time: what {@code PorClient.prepare} does for each
 * 64 KiB block of a pack (sigma under M, and sigma under M_H at its batch slot, batches of 2^4, through
 * {@code ChecksumKey.ofSegments}: with the vector kernel each key's rows read the segments from the bytes, with the
 * scalar one the segments are converted once for both; a verified read does the first half), through
 * the public API only, so main's {@code por} classes first on the class path measure main. A fresh JVM's first blocks
 * are reported apart ("cold": the kernels before C2 compiled them, what a short run or a new gateway pays), then
 * rounds of warm blocks; prints ms of CPU per MB of block data and microseconds per block.
 *
 * <p>Usage: {@code java --add-modules jdk.incubator.vector -XX:UseAVX=3 -cp "benchmarks/target/classes:
 * benchmarks/target/lib/*" io.coffer.benchmarks.por.PorChecksumCpu [ROUNDS] [COLD_BLOCKS] [array]} (default 7 rounds
 * of 512 blocks, 256 cold blocks); {@code array} times the segments converted into an array once whatever the kernel
 * (the vector kernel's form before porbytes), to compare the two in one build.
 */
public final class PorChecksumCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean PROCESS =
            ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    private static final int BLOCK_BYTES = 64 * 1024;
    private static final int SLOTS = 16;
    private static final int ROUND_BLOCKS = 512;
    private static final double BLOCK_MB = BLOCK_BYTES / 1e6;

    private PorChecksumCpu() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int coldBlocks = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        boolean array = args.length > 2 && args[2].equals("array");
        int width = Segments.count(BLOCK_BYTES) + 1;
        ChecksumKey blockKey = ChecksumKey.derive(key(1), width);
        ChecksumKey batchKey = ChecksumKey.derive(key(2), SLOTS * width);
        byte[][] blocks = new byte[64][BLOCK_BYTES];
        SplittableRandom random = new SplittableRandom(19);
        for (byte[] block : blocks) {
            random.nextBytes(block);
        }
        System.out.println("checksum kernel: " + ChecksumKernels.chosenName() + (array ? ", segments into an array first"
                : ", as PorClient.prepare (ChecksumKey.ofSegments)"));
        long[] sink = new long[1];
        double cold = run(blockKey, batchKey, blocks, coldBlocks, array, sink);
        System.out.printf(Locale.ROOT, "cold   first %d blocks: %7.3f ms/MB  %7.1f us/block%n", coldBlocks, cold,
                cold * BLOCK_MB * 1000);
        double[] warm = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            warm[round] = run(blockKey, batchKey, blocks, ROUND_BLOCKS, array, sink);
            System.out.printf(Locale.ROOT, "round %d %d blocks: %7.3f ms/MB  %7.1f us/block%n", round, ROUND_BLOCKS,
                    warm[round], warm[round] * BLOCK_MB * 1000);
        }
        double[] sorted = warm.clone();
        Arrays.sort(sorted);
        double median = sorted[rounds / 2];
        System.out.printf(Locale.ROOT, "median warm: %7.3f ms/MB  %7.1f us/block (sink %d)%n", median,
                median * BLOCK_MB * 1000, sink[0] & 1);
        long blocksDone = coldBlocks + (long) rounds * ROUND_BLOCKS;
        double processMs = PROCESS.getProcessCpuTime() / 1e6;
        System.out.printf(Locale.ROOT, "process CPU (every thread, JIT and warm-up included): %.0f ms for %d blocks, "
                + "%.3f ms/MB%n", processMs, blocksDone, processMs / (blocksDone * BLOCK_MB));
    }

    /** CPU milliseconds per MB for {@code count} blocks, each prepared as the client prepares a block of a pack. */
    private static double run(ChecksumKey blockKey, ChecksumKey batchKey, byte[][] blocks, int count, boolean array,
            long[] sink) {
        int width = blockKey.width();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < count; i++) {
            byte[] block = blocks[i % blocks.length];
            if (array) {
                int[] untagged = new int[width];
                Segments.fromBytes(block, 0, block.length, untagged);
                sink[0] += blockKey.checksum(untagged).hashCode();
                sink[0] += batchKey.checksum(untagged, (i % SLOTS) * width).hashCode();
            } else {
                for (Checksum sum : ChecksumKey.ofSegments(block, new ChecksumKey[] {blockKey, batchKey},
                        new int[] {0, (i % SLOTS) * width})) {
                    sink[0] += sum.hashCode();
                }
            }
        }
        return (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6 / (count * BLOCK_MB);
    }

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }
}

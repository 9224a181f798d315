package io.coffer.benchmarks.por;

import io.coffer.por.checksum.ChecksumKernels;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The PoR code's one-thread speeds measured in the thread's CPU time as well as wall time, for a shared machine where
 * JMH's wall-clock scores are noisy (the benchmarks' convention: {@code EngineCpuBreakdown}). The same work as
 * {@link PorMixBenchmark} (mix at level 11, out of place and in place) and {@link PorRebuildBenchmark} (an HAdd epoch
 * and a CRebuild of 4,096 blocks of 4 KiB), and the checksum sigma = M * B of 64 blocks of 64 KiB (a verified read's
 * main cost), in MiB/s of block data; prints each round and the medians, and the checksum's microseconds per 64 KiB
 * block.
 *
 * <p>Usage: {@code java [--add-modules jdk.incubator.vector -XX:UseAVX=3] -cp
 * "benchmarks/target/classes:benchmarks/target/lib/*" io.coffer.benchmarks.por.PorCodeCpuRates [ROUNDS]} (default 9,
 * after 3 unmeasured); the first lines name the checksum and butterfly kernels that run ({@code ChecksumKernels},
 * {@code ZpVectors}; the vector butterflies only with {@code -Dcoffer.por.vector.butterflies=on}).
 */
public final class PorCodeCpuRates {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int K = 12;
    private static final double MIB = (double) (PorMixBenchmark.BLOCK_BYTES << K) / (1 << 20);
    private static final int CHECKSUM_BLOCKS = 64;
    private static final int CHECKSUM_BLOCK_BYTES = 64 * 1024;
    /** A block of U as the client checksums it: its segments and the tag. */
    private static final int CHECKSUM_WIDTH = Segments.count(CHECKSUM_BLOCK_BYTES) + 1;
    private static final double CHECKSUM_MIB = (double) CHECKSUM_BLOCKS * CHECKSUM_BLOCK_BYTES / (1 << 20);

    private PorCodeCpuRates() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        System.out.println("checksum kernel: " + ChecksumKernels.chosenName());
        System.out.println("butterfly kernel: " + ZpVectors.kernelName());
        ChecksumKey key = ChecksumKey.derive(new byte[32], CHECKSUM_WIDTH);
        int[][] checksumBlocks = PorMixBenchmark.randomVectors(new SplittableRandom(43), CHECKSUM_BLOCKS,
                CHECKSUM_WIDTH);
        long[] sink = new long[1];
        int[][] blocks = PorMixBenchmark.randomVectors(new SplittableRandom(42), 1 << K);
        int[][] out = new int[1 << K][PorMixBenchmark.WIDTH];
        CodeParameters params = new CodeParameters(K);
        MemoryLevelStore store = new MemoryLevelStore(params, PorMixBenchmark.WIDTH);
        Runnable[] work = {
            () -> mix(blocks, out, params.zeta(K - 1)),
            () -> mix(blocks, blocks, params.zeta(K - 1)),
            () -> {
                HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(K));
                for (int[] block : blocks) {
                    log.add(block);
                }
            },
            () -> new HierarchicalLog(params, store, LogState.empty(K))
                    .rebuildC((i, into) -> System.arraycopy(blocks[i], 0, into, 0, PorMixBenchmark.WIDTH)),
            () -> {
                for (int[] block : checksumBlocks) {
                    sink[0] += key.checksum(block).hashCode();
                }
            },
        };
        String[] names = {"mix (level 11)", "mix in place", "hAdd (epoch)", "cRebuild", "checksum 64K"};
        double[] mib = {MIB, MIB, MIB, MIB, CHECKSUM_MIB};
        double[][] cpu = new double[work.length][rounds];
        double[][] wall = new double[work.length][rounds];
        for (int round = -3; round < rounds; round++) {
            for (int w = 0; w < work.length; w++) {
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                work[w].run();
                double cpuRate = mib[w] / ((THREADS.getCurrentThreadCpuTime() - cpu0) / 1e9);
                double wallRate = mib[w] / ((System.nanoTime() - wall0) / 1e9);
                if (round >= 0) {
                    cpu[w][round] = cpuRate;
                    wall[w][round] = wallRate;
                    System.out.printf(Locale.ROOT, "round %d %-15s cpu %8.1f MiB/s  wall %8.1f MiB/s%n", round,
                            names[w], cpuRate, wallRate);
                }
            }
        }
        for (int w = 0; w < work.length; w++) {
            System.out.printf(Locale.ROOT, "median  %-15s cpu %8.1f MiB/s  wall %8.1f MiB/s%n", names[w],
                    median(cpu[w]), median(wall[w]));
        }
        double perBlockMicros = 1e6 * CHECKSUM_MIB / CHECKSUM_BLOCKS / median(cpu[4]);
        System.out.printf(Locale.ROOT, "checksum of a 64 KiB block: %.1f us of CPU (median; sink %d)%n",
                perBlockMicros, sink[0] & 1);
    }

    /**
     * Figure 4's mix of two level-11 codes of 2,048 blocks each (16 MiB of blocks in), into {@code out}; with {@code
     * out} the blocks themselves, in place, as every butterfly of the product runs ({@link PorMixBenchmark}).
     */
    private static void mix(int[][] blocks, int[][] out, int nu) {
        int half = blocks.length / 2;
        int twiddle = 1;
        for (int i = 0; i < half; i++) {
            ZpVectors.butterfly(blocks[i], blocks[i + half], twiddle, out[i], out[i + half]);
            twiddle = Zp.mul(twiddle, nu);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}

package io.coffer.benchmarks.por;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One-thread speed of the PoR erasure code over 4 KiB blocks (1,093 elements of 30 bits plus the block tag), in
 * MiB/s of block data: every invocation processes 16 MiB of blocks and counts as 16 operations, so ops/s <b>is
 * MiB/s</b>.
 *
 * <p>{@code mix}: Figure 4's mix(A0, A1) of two level-l codes (2^l blocks each) into level l + 1, the step every
 * rebuild is made of; the data counted is the 2 * 2^l input blocks. The paper reports over 1,600 MB/s per
 * level (C#, 2010 CPU); the target here is 3,200. {@code mixInPlace} writes A over A0 and A1, as every butterfly of
 * the product runs ({@code HierarchicalLog}'s rebuilds in the level's storage, {@code DeamortizedLog}'s merges over
 * the two vectors they read); {@code mix} writes a separate output, which the product never does (the kernel copies
 * the inputs there first). {@link PorRebuildBenchmark} measures whole rebuilds.
 *
 * <p>Run: {@code benchmarks/run.sh jmh PorMixBenchmark -f 1 -wi 2 -i 3 -w 2s -r 2s}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class PorMixBenchmark {
    static final int BLOCK_BYTES = 4096;
    static final int WIDTH = Segments.count(BLOCK_BYTES) + 1;
    private static final int MIB_PER_INVOCATION = 16;
    private static final int BLOCKS_PER_INVOCATION = (MIB_PER_INVOCATION << 20) / BLOCK_BYTES;
    private static final int K = Integer.numberOfTrailingZeros(BLOCKS_PER_INVOCATION);

    /** The level of the two codes mix merges; 2 * 2^level blocks must divide 16 MiB. */
    @Param({"4", "8", "11"})
    public int level;

    private int[][] a0;
    private int[][] a1;
    private int[][] out;
    private int nu;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        int half = 1 << level;
        a0 = randomVectors(random, half);
        a1 = randomVectors(random, half);
        out = new int[2 * half][WIDTH];
        nu = new CodeParameters(K).zeta(level);
    }

    static int[][] randomVectors(SplittableRandom random, int count) {
        return randomVectors(random, count, WIDTH);
    }

    static int[][] randomVectors(SplittableRandom random, int count, int width) {
        int[][] vectors = new int[count][width];
        for (int[] v : vectors) {
            for (int i = 0; i < width; i++) {
                v[i] = random.nextInt(Zp.P);
            }
        }
        return vectors;
    }

    @Benchmark
    @OperationsPerInvocation(MIB_PER_INVOCATION)
    public int[][] mix() {
        return mix(out, out, 1 << level);
    }

    @Benchmark
    @OperationsPerInvocation(MIB_PER_INVOCATION)
    public int[][] mixInPlace() {
        return mix(a0, a1, 0);
    }

    /** A's low half into {@code low[i]}, its high half into {@code high[i + highOffset]}. */
    private int[][] mix(int[][] low, int[][] high, int highOffset) {
        int half = 1 << level;
        int rounds = BLOCKS_PER_INVOCATION / (2 * half);
        for (int r = 0; r < rounds; r++) {
            int twiddle = 1;
            for (int i = 0; i < half; i++) {
                ZpVectors.butterfly(a0[i], a1[i], twiddle, low[i], high[i + highOffset]);
                twiddle = Zp.mul(twiddle, nu);
            }
        }
        return low;
    }
}

package io.coffer.benchmarks.por;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One-thread speed of whole rebuilds over 4 KiB blocks in a memory store (so the figures are the code's, not a
 * disk's), in MiB/s of block data: every invocation processes 16 MiB (n = 4,096 blocks, k = 12) and counts as 16
 * operations, so ops/s <b>is MiB/s</b>.
 *
 * <ul>
 *   <li>{@code hAdd}: a whole epoch of n writes through HAdd (every level rebuild of the epoch), counting the
 *       written blocks: each block takes part in about k mix steps, so this is about the mix speed / k.
 *   <li>{@code cRebuild}: CRebuild of U (k mix passes over 2n vectors), counting U.
 * </ul>
 *
 * <p>Run: {@code benchmarks/run.sh jmh PorRebuildBenchmark -f 1 -wi 2 -i 3 -w 2s -r 2s}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class PorRebuildBenchmark {
    private static final int MIB_PER_INVOCATION = 16;
    private static final int BLOCKS = (MIB_PER_INVOCATION << 20) / PorMixBenchmark.BLOCK_BYTES;
    private static final int K = Integer.numberOfTrailingZeros(BLOCKS);

    private int[][] blocks;
    private CodeParameters params;
    private MemoryLevelStore store;

    @Setup(Level.Trial)
    public void setUp() {
        blocks = PorMixBenchmark.randomVectors(new SplittableRandom(42), BLOCKS);
        params = new CodeParameters(K);
        store = new MemoryLevelStore(params, PorMixBenchmark.WIDTH);
    }

    @Benchmark
    @OperationsPerInvocation(MIB_PER_INVOCATION)
    public LogState hAdd() {
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(K));
        for (int[] block : blocks) {
            log.add(block);
        }
        return log.state();
    }

    @Benchmark
    @OperationsPerInvocation(MIB_PER_INVOCATION)
    public LogState cRebuild() {
        HierarchicalLog log = new HierarchicalLog(params, store, LogState.empty(K));
        log.rebuildC((i, into) -> System.arraycopy(blocks[i], 0, into, 0, PorMixBenchmark.WIDTH));
        return log.state();
    }
}

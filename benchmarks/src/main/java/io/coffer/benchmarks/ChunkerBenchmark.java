package io.coffer.benchmarks;

import io.coffer.sdk.chunk.Chunk;
import io.coffer.sdk.chunk.ChunkReader;
import io.coffer.sdk.chunk.Chunker;
import io.coffer.sdk.chunk.ChunkerSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-thread chunking throughput of {@link io.coffer.sdk.chunk.FastCdcChunker} (default spec and an 8 KiB
 * average) and {@link io.coffer.sdk.chunk.FixedChunker} over 64 MiB of random bytes, both calling
 * {@link Chunker#nextCut} on the array directly and streaming through {@link ChunkReader} over a
 * {@link ByteArrayInputStream}.
 *
 * <p>One op = chunking the whole 64 MiB buffer; the score is ops/s, so MB/s = score * 64 MiB, i.e. MiB/s =
 * score * 64 (the buffer size in MiB, {@code sizeMiB}). Each op returns the chunk count, which JMH consumes.
 *
 * <p>Run: {@code mvn -B -q -DskipTests -pl benchmarks -am package}, then
 * {@code java -cp "benchmarks/target/classes:benchmarks/target/lib/*" org.openjdk.jmh.Main ChunkerBenchmark}
 * (quick: {@code -f 1 -wi 1 -i 3}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
public class ChunkerBenchmark {

    /** Chunker under test, as a {@link ChunkerSpec} string. */
    @Param({"fastcdc:256k:1m:4m", "fastcdc:2k:8k:64k", "fixed:1m"})
    public String spec;

    /** Input size in MiB; MiB/s = ops/s * sizeMiB. */
    @Param({"64"})
    public int sizeMiB;

    private byte[] data;
    private Chunker chunker;

    /** Fills the buffer with reproducible random bytes and builds the chunker. */
    @Setup
    public void setUp() {
        data = new byte[sizeMiB << 20];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < data.length; i += 8) {
            long v = random.nextLong();
            for (int k = 0; k < 8 && i + k < data.length; k++) {
                data[i + k] = (byte) (v >>> (8 * k));
            }
        }
        chunker = ChunkerSpec.parse(spec).newChunker();
    }

    /** Chunks the whole array with {@link Chunker#nextCut}; returns the chunk count. */
    @Benchmark
    public int nextCutOnArray() {
        int count = 0;
        for (int offset = 0; offset < data.length; count++) {
            offset += chunker.nextCut(data, offset, data.length - offset);
        }
        return count;
    }

    /** Streams the array through a {@link ChunkReader}; returns the chunk count. */
    @Benchmark
    public int chunkReaderOverStream() throws IOException {
        int count = 0;
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                count++;
            }
        }
        return count;
    }
}

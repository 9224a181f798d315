package io.coffer.benchmarks.layers;

import io.coffer.benchmarks.CountingSink;
import io.coffer.sdk.chunk.FastCdcChunker;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.SubChunkCipher;
import io.coffer.sdk.deflate.PartialDecoder;
import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.ClusterIndex;
import io.coffer.sdk.similarity.FinesseSketcher;
import io.coffer.sdk.similarity.SubChunkKeys;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The stages of SimEnc's layer pipeline, one at a time, single-threaded, over 4 MiB of text-like bytes (words from a
 * small vocabulary, so deflate finds matches as in tar'd source trees): partial decoding of its gzip form, sketching
 * (Finesse super-features and the MinHash code) of 512 KiB chunks, cluster assignment against 2,000 clusters, FastCDC
 * sub-chunking (1 KiB average, as the layer experiment), sealing those sub-chunks (SIV, as the layer experiment's
 * pipelines do; and as the engine's layer writer does: SHA-256, a key per sub-chunk from {@link SubChunkKeys}, its id,
 * and {@link ChunkCipher#sealChunk} with compression), and dedup index lookups of their SHA-256 digests.
 *
 * <p>The score (ops/s) of each benchmark is invocations per second, one invocation being the stage over the 4 MiB
 * (multiply by 4.19 for MB per wall second; partial decoding's input is the gzip form, whose size the trial prints).
 * Because the machine is shared, each iteration also prints the benchmark thread's MB of input per CPU-second
 * ("cpu MB/s"; for partial decoding, MB of gzip input), which load on other cores does not change.
 *
 * <p>Run: {@code benchmarks/run.sh jmh LayerStagesBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class LayerStagesBenchmark {
    static final int SIZE = 4 << 20;
    private static final int CHUNK = 512 << 10;
    private static final int CLUSTERS = 2000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private byte[] text;
    private byte[] gzip;
    private ChunkSketch[] sketches;
    private ClusterIndex index;
    private int[] cuts;
    private byte[][] digests;
    private final FinesseSketcher sketcher = new FinesseSketcher();
    private final FastCdcChunker chunker = new FastCdcChunker(512, 1024, 4096);
    private SubChunkCipher cipher;
    private ChunkCipher chunkCipher;
    private byte[] sealed;
    private ChunkKey key;
    private long cpuStart;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        text = text(SIZE, 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(text);
        }
        gzip = out.toByteArray();
        System.out.printf(" [gzip %d bytes of %d]", gzip.length, SIZE);
        sketches = new ChunkSketch[SIZE / CHUNK];
        for (int i = 0; i < sketches.length; i++) {
            sketches[i] = sketcher.sketch(text, i * CHUNK, CHUNK);
        }
        index = new ClusterIndex(FinesseSketcher.DEFAULT_CODE_BITS, 10);
        byte[] other = text(CHUNK, 2);
        Random r = new Random(3);
        for (int c = 0; c < CLUSTERS; c++) {
            // distant codes: random chunks' sketches would all be alike, so random codes stand in for them
            long[] code = new long[FinesseSketcher.DEFAULT_CODE_BITS / 64];
            for (int j = 0; j < code.length; j++) {
                code[j] = r.nextLong();
            }
            index.assign(new ChunkSketch(sketcher.sketch(other, 0, 4096).superFeatures(), code), new byte[32]);
        }
        int n = 0;
        int[] c = new int[SIZE / 512 + 1];
        for (int p = 0; p < SIZE; p += c[n - 1]) {
            c[n++] = chunker.nextCut(text, p, SIZE - p);
        }
        cuts = java.util.Arrays.copyOf(c, n);
        MessageDigest sha = sha256();
        digests = new byte[n][];
        for (int i = 0, p = 0; i < n; p += cuts[i], i++) {
            sha.update(text, p, cuts[i]);
            digests[i] = sha.digest();
        }
        byte[] seal = new byte[32];
        r.nextBytes(seal);
        cipher = new SubChunkCipher(seal);
        chunkCipher = new ChunkCipher(seal);
        sealed = new byte[ChunkCipher.sealedLength(4096)];
        byte[] k = new byte[32];
        r.nextBytes(k);
        key = ChunkKey.of(k);
    }

    @Setup(Level.Iteration)
    public void startClock() {
        cpuStart = THREADS.getCurrentThreadCpuTime();
        bytes = 0;
    }

    @TearDown(Level.Iteration)
    public void printCpuRate() {
        double cpu = (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e9;
        System.out.printf(" [cpu MB/s %.1f]", bytes / 1e6 / cpu);
    }

    @Benchmark
    public void partialDecode(Blackhole bh) throws IOException {
        CountingSink tokens = new CountingSink();
        new PartialDecoder().decode(new ByteArrayInputStream(gzip), tokens, OutputStream.nullOutputStream());
        bh.consume(tokens.count());
        bytes += gzip.length;
    }

    @Benchmark
    public void sketch(Blackhole bh) {
        for (int off = 0; off < SIZE; off += CHUNK) {
            bh.consume(sketcher.sketch(text, off, CHUNK));
        }
        bytes += SIZE;
    }

    @Benchmark
    public void clusterAssign(Blackhole bh) {
        byte[] hash = new byte[32];
        for (ChunkSketch s : sketches) {
            bh.consume(index.assign(s, hash));
        }
        bytes += SIZE;
    }

    @Benchmark
    public void fastCdcSubChunks(Blackhole bh) {
        int count = 0;
        for (int p = 0; p < SIZE; count++) {
            p += chunker.nextCut(text, p, SIZE - p);
        }
        bh.consume(count);
        bytes += SIZE;
    }

    @Benchmark
    public void sealSubChunks(Blackhole bh) {
        for (int i = 0, p = 0; i < cuts.length; p += cuts[i], i++) {
            bh.consume(cipher.seal(key, text, p, cuts[i]));
        }
        bytes += SIZE;
    }

    /** Every sub-chunk as the engine's layer writer stores a new one (all new here: no lookup cost). */
    @Benchmark
    public void sealSubChunksAsTheEngine(Blackhole bh) {
        SubChunkKeys keys = new SubChunkKeys(key);
        for (int i = 0, p = 0; i < cuts.length; p += cuts[i], i++) {
            byte[] hash = chunkCipher.hash(text, p, cuts[i]);
            ChunkKey k = keys.keyFor(hash);
            bh.consume(chunkCipher.idFor(k));
            bh.consume(chunkCipher.sealChunk(k, text, p, cuts[i], true, sealed, 0));
        }
        bytes += SIZE;
    }

    @Benchmark
    public void dedupLookups(Blackhole bh) {
        DigestSet set = new DigestSet();
        int added = 0;
        for (int round = 0; round < 2; round++) {
            for (byte[] d : digests) {
                added += set.add(d) ? 1 : 0;
            }
        }
        bh.consume(added);
        bytes += SIZE;
    }

    /** Words from a 2,000-word vocabulary of 2-9 letters, so gzip finds the repeats a source tree has. */
    static byte[] text(int size, long seed) {
        Random r = new Random(seed);
        String[] words = new String[2000];
        for (int i = 0; i < words.length; i++) {
            StringBuilder w = new StringBuilder();
            for (int j = 2 + r.nextInt(8); j > 0; j--) {
                w.append((char) ('a' + r.nextInt(26)));
            }
            words[i] = w.toString();
        }
        byte[] b = new byte[size];
        int p = 0;
        while (p < size) {
            String w = words[(int) Math.min(words.length - 1, Math.abs(r.nextGaussian()) * 300)];
            for (int j = 0; j < w.length() && p < size; j++) {
                b[p++] = (byte) w.charAt(j);
            }
            if (p < size) {
                b[p++] = (byte) (r.nextInt(12) == 0 ? '\n' : ' ');
            }
        }
        return b;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

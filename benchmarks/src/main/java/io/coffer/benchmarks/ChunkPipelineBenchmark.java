package io.coffer.benchmarks;

import io.coffer.sdk.chunk.Chunk;
import io.coffer.sdk.chunk.ChunkReader;
import io.coffer.sdk.chunk.Chunker;
import io.coffer.sdk.chunk.ChunkerSpec;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.JceWarmup;
import io.coffer.sdk.key.ConvergentKeySource;
import io.coffer.sdk.key.KeySource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The per-chunk hot path of the engine, single thread, over 64 MiB of random bytes (each invocation streams the
 * whole buffer; a measurement iteration repeats it for 2 s, so well over 256 MiB per iteration).
 *
 * <ul>
 *   <li>{@link #cut}: {@link ChunkReader} over a {@link ByteArrayInputStream} with the chunker (what
 *       {@code ObjectWriter} does, minus {@code Md5Tap});</li>
 *   <li>{@link #cutHash}: plus SHA-256 of each chunk ({@link ChunkCipher#hash});</li>
 *   <li>{@link #writePath}: plus the key (the embedded {@link ConvergentKeySource}, one call per chunk as the engine
 *       makes with {@code keyBatchChunks = 1}), the id ({@link ChunkCipher#idFor}) and AES-256-GCM
 *       ({@link ChunkCipher#seal}) into an 8 MiB pack-sized buffer;</li>
 *   <li>{@link #readPath}: per chunk, copy the sealed chunk into a fresh array and {@link ChunkCipher#open} it in
 *       place: AES-256-GCM with its tag check;</li>
 *   <li>{@link #readPathFormat1}: the same for chunks written before format 2: AES-256-CTR plus the SHA-256 check of
 *       the plaintext.</li>
 * </ul>
 *
 * <p>{@link JceWarmup} runs first in every fork (steady-state JIT). One invocation counts as 64 operations, so the score in ops/s <b>is MiB/s</b>. Run:
 * {@code benchmarks/run.sh jmh ChunkPipelineBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ChunkPipelineBenchmark {
    static final int SIZE_MIB = 64;
    private static final int SIZE = SIZE_MIB << 20;
    private static final int PACK = 8 << 20;

    /** Chunker, as a {@link ChunkerSpec} string. */
    @Param({"fastcdc:256k:1m:4m"})
    public String spec;

    private byte[] data;
    private Chunker chunker;
    private ChunkCipher cipher;
    private KeySource keySource;
    private byte[] pack;

    // read path: the buffer chunked and sealed once in setUp, and also encrypted as format 1 (AES-CTR under K)
    private byte[] ciphertext;
    private byte[] ctrCiphertext;
    private int[] offsets;
    private int[] sealedOffsets;
    private int[] lengths;
    private ChunkKey[] keys;
    private byte[][] hashes;

    @Setup
    public void setUp() throws Exception {
        JceWarmup.run();
        data = Data.random(SIZE, 7);
        chunker = ChunkerSpec.parse(spec).newChunker();
        cipher = new ChunkCipher(Data.random(32, 9));
        keySource = new ConvergentKeySource(Data.random(32, 8));
        pack = new byte[PACK + ChunkCipher.sealedLength(chunker.maxSize())];
        ciphertext = new byte[SIZE + (SIZE / chunker.minSize() + 1) * ChunkCipher.TAG_LENGTH];
        ctrCiphertext = new byte[SIZE];
        int sealedAt = 0;
        List<Integer> sealedCuts = new ArrayList<>();
        List<int[]> cuts = new ArrayList<>();
        List<ChunkKey> ks = new ArrayList<>();
        List<byte[]> hs = new ArrayList<>();
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                byte[] h = cipher.hash(c.array(), c.offset(), c.length());
                ChunkKey k = keySource.keysFor(List.of(h)).get(0);
                cipher.seal(k, c.array(), c.offset(), c.length(), ciphertext, sealedAt);
                sealedCuts.add(sealedAt);
                sealedAt += ChunkCipher.sealedLength(c.length());
                Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
                ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k.rawBytesForCipher(), "AES"),
                        new IvParameterSpec(new byte[16]));
                ctr.doFinal(c.array(), c.offset(), c.length(), ctrCiphertext, (int) c.streamOffset());
                cuts.add(new int[] {(int) c.streamOffset(), c.length()});
                ks.add(k);
                hs.add(h);
            }
        }
        offsets = cuts.stream().mapToInt(c -> c[0]).toArray();
        lengths = cuts.stream().mapToInt(c -> c[1]).toArray();
        sealedOffsets = sealedCuts.stream().mapToInt(Integer::intValue).toArray();
        keys = ks.toArray(new ChunkKey[0]);
        hashes = hs.toArray(new byte[0][]);
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public long cut() throws IOException {
        long sum = 0;
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                sum += c.length();
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public long cutHash() throws IOException {
        long sum = 0;
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                sum += cipher.hash(c.array(), c.offset(), c.length())[0];
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public long writePath() throws Exception {
        long sum = 0;
        int at = 0;
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                byte[] h = cipher.hash(c.array(), c.offset(), c.length());
                ChunkKey k = keySource.keysFor(List.of(h)).get(0);
                ChunkId id = cipher.idFor(k);
                int sealed = ChunkCipher.sealedLength(c.length());
                if (at + sealed > pack.length) {
                    at = 0; // a new pack
                }
                cipher.seal(k, c.array(), c.offset(), c.length(), pack, at);
                at += sealed;
                sum += id.hashCode();
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public long readPath() throws ChunkIntegrityException {
        return openAll(ciphertext, sealedOffsets, ChunkCipher.TAG_LENGTH);
    }

    /** The read path of chunks written before format 2: AES-CTR under K, checked by the plaintext's SHA-256. */
    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public long readPathFormat1() throws ChunkIntegrityException {
        return openAll(ctrCiphertext, offsets, 0);
    }

    /** Copies each stored chunk (its plaintext length plus {@code overhead} bytes at {@code starts[i]}) and opens it. */
    private long openAll(byte[] stored, int[] starts, int overhead) throws ChunkIntegrityException {
        long sum = 0;
        for (int i = 0; i < starts.length; i++) {
            int length = lengths[i] + overhead;
            byte[] chunk = Arrays.copyOfRange(stored, starts[i], starts[i] + length);
            cipher.open(keys[i], chunk, 0, length, lengths[i], hashes[i]);
            sum += chunk[0];
        }
        return sum;
    }
}

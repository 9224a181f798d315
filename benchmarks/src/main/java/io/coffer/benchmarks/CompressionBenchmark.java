package io.coffer.benchmarks;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The chunk compressors Coffer could use, each on 16 MiB cut into 1 MiB chunks (the default average chunk) compressed
 * one by one, each chunk whole in one call (the engine compresses a chunk's first 128 KiB first and stops there when
 * they do not pay; this compares the codecs themselves), with the write path's rule for keeping a frame (it must save
 * a 32nd of the chunk and the 28 bytes of format 3's nonce and tag): compression and decompression speed, and
 * (printed once per trial, {@code [ratio]}) the stored fraction. What it decided: docs/DECISIONS.md, "Chunk
 * compression: zstd-jni at level 1".
 *
 * <ul>
 *   <li>{@code codec}: {@code zstd-jni:L} (native zstd through JNI at level L), {@code aircompressor} (pure-Java
 *       zstd, one fixed level), {@code deflate:L} (the JDK's zlib at level L).</li>
 *   <li>{@code data}: {@code text} ({@link Data#text}), {@code random} (incompressible), {@code source} (this
 *       repository's .java and .md files, run from its root).</li>
 * </ul>
 *
 * <p>Scores are operations (16 MiB each) per second. Run: {@code benchmarks/run.sh jmh CompressionBenchmark}.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CompressionBenchmark {
    static final int TOTAL = 16 << 20;
    static final int CHUNK = 1 << 20;

    @Param({"zstd-jni:-1", "zstd-jni:1", "zstd-jni:3", "zstd-jni:6", "aircompressor", "deflate:1", "deflate:6"})
    public String codec;

    @Param({"text", "random", "source"})
    public String data;

    private byte[] input;
    private byte[] compressed;
    private int[] frameLengths;
    private byte[] out;
    private Codec c;

    /** One chunk compressor: -1 when the frame does not fit {@code limit}. */
    interface Codec {
        int compress(byte[] in, int off, int len, byte[] out, int outOff, int limit);

        void decompress(byte[] in, int off, int len, byte[] out, int outOff, int plainLength);
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        input = data.equals("source") ? source() : Data.of(data, TOTAL, 21);
        c = codec(codec);
        out = new byte[TOTAL + TOTAL / 8];
        compressed = new byte[TOTAL + TOTAL / 8];
        frameLengths = new int[TOTAL / CHUNK];
        long stored = 0;
        for (int i = 0; i < frameLengths.length; i++) {
            int n = c.compress(input, i * CHUNK, CHUNK, compressed, i * CHUNK, limit(CHUNK));
            frameLengths[i] = n;
            stored += n < 0 ? CHUNK + 16 : n + 28;
        }
        System.out.printf("%n[ratio] %s %s: stored %.1f %% of %d bytes%n", codec, data, 100.0 * stored / TOTAL, TOTAL);
    }

    /** The write path's rule (ChunkCipher.frameLimit). */
    static int limit(int plain) {
        return plain - 28 - Math.max(1, plain / 32);
    }

    @Benchmark
    public int compress() {
        int total = 0;
        for (int off = 0; off < TOTAL; off += CHUNK) {
            total += c.compress(input, off, CHUNK, out, off, limit(CHUNK));
        }
        return total;
    }

    /** Decompresses the chunks that were kept compressed (the others are read raw, at no cost here). */
    @Benchmark
    public int decompress() {
        int total = 0;
        for (int i = 0; i < frameLengths.length; i++) {
            if (frameLengths[i] > 0) {
                c.decompress(compressed, i * CHUNK, frameLengths[i], out, i * CHUNK, CHUNK);
                total += CHUNK;
            }
        }
        return total;
    }

    static Codec codec(String spec) {
        String[] parts = spec.split(":");
        return switch (parts[0]) {
            case "zstd-jni" -> zstdJni(Integer.parseInt(parts[1]));
            case "aircompressor" -> aircompressor();
            case "deflate" -> deflate(Integer.parseInt(parts[1]));
            default -> throw new IllegalArgumentException("unknown codec " + spec);
        };
    }

    private static Codec zstdJni(int level) {
        ZstdCompressCtx cctx = new ZstdCompressCtx().setLevel(level).setChecksum(false).setContentSize(true);
        ZstdDecompressCtx dctx = new ZstdDecompressCtx();
        return new Codec() {
            @Override
            public int compress(byte[] in, int off, int len, byte[] out, int outOff, int limit) {
                try {
                    return cctx.compressByteArray(out, outOff, limit, in, off, len);
                } catch (ZstdException e) {
                    if (e.getErrorCode() == Zstd.errDstSizeTooSmall()) {
                        return -1;
                    }
                    throw e;
                }
            }

            @Override
            public void decompress(byte[] in, int off, int len, byte[] out, int outOff, int plainLength) {
                dctx.decompressByteArray(out, outOff, plainLength, in, off, len);
            }
        };
    }

    private static Codec aircompressor() {
        io.airlift.compress.zstd.ZstdCompressor comp = new io.airlift.compress.zstd.ZstdCompressor();
        io.airlift.compress.zstd.ZstdDecompressor decomp = new io.airlift.compress.zstd.ZstdDecompressor();
        byte[] scratch = new byte[comp.maxCompressedLength(CHUNK)];
        return new Codec() {
            @Override
            public int compress(byte[] in, int off, int len, byte[] out, int outOff, int limit) {
                // it wants room for its worst case: a frame of the whole bound, then the same keep-or-not rule
                int n = comp.compress(in, off, len, scratch, 0, scratch.length);
                if (n > limit) {
                    return -1;
                }
                System.arraycopy(scratch, 0, out, outOff, n);
                return n;
            }

            @Override
            public void decompress(byte[] in, int off, int len, byte[] out, int outOff, int plainLength) {
                decomp.decompress(in, off, len, out, outOff, plainLength);
            }
        };
    }

    private static Codec deflate(int level) {
        Deflater deflater = new Deflater(level, true);
        Inflater inflater = new Inflater(true);
        return new Codec() {
            @Override
            public int compress(byte[] in, int off, int len, byte[] out, int outOff, int limit) {
                deflater.reset();
                deflater.setInput(in, off, len);
                deflater.finish();
                int n = deflater.deflate(out, outOff, limit);
                return deflater.finished() ? n : -1;
            }

            @Override
            public void decompress(byte[] in, int off, int len, byte[] out, int outOff, int plainLength) {
                inflater.reset();
                inflater.setInput(in, off, len);
                try {
                    inflater.inflate(out, outOff, plainLength);
                } catch (DataFormatException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    /** This repository's .java and .md files, concatenated and cut (or repeated) to {@link #TOTAL} bytes. */
    private static byte[] source() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(Path.of("."))) {
            files = s.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".md"))
                    .filter(p -> !p.toString().contains("/target/")).sorted().toList();
        }
        byte[] all = new byte[TOTAL];
        int pos = 0;
        while (pos < TOTAL) {
            int before = pos;
            for (Path p : files) {
                byte[] b;
                try {
                    b = Files.readAllBytes(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                int n = Math.min(b.length, TOTAL - pos);
                System.arraycopy(b, 0, all, pos, n);
                pos += n;
                if (pos == TOTAL) {
                    break;
                }
            }
            if (pos == before) {
                throw new IllegalStateException("no .java or .md files under " + Path.of(".").toAbsolutePath());
            }
        }
        return Arrays.copyOf(all, TOTAL);
    }
}

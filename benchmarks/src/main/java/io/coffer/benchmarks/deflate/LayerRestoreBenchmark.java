package io.coffer.benchmarks.deflate;

import io.coffer.benchmarks.CountingSink;
import io.coffer.sdk.deflate.DecodeSummary;
import io.coffer.sdk.deflate.PartialDecoder;
import io.coffer.sdk.deflate.PartialEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Restoring a gzip'd layer (issue 20, SimEnc §3): re-encoding its partially decoded form (tokens and side
 * information, {@link PartialEncoder}: Huffman coding only) against recompressing its tar with deflate level 6 (the
 * JDK's zlib, {@code gzip -6}'s algorithm, and the gzip binary itself); and decoding: partial decoding
 * ({@link PartialDecoder}) against full decompression ({@link GZIPInputStream}).
 *
 * <p>One op = one whole layer, all in memory, output discarded; the score is ms/op. MB/s of the compressed layer =
 * compressed bytes / 1000 / score (setup prints the sizes).
 *
 * <p>Run: {@code benchmarks/run.sh jmh LayerRestoreBenchmark} (quick: {@code -f 1 -wi 2 -i 3}), with the dev dataset
 * at datasets/dev ({@code benchmarks/run.sh fetch-dev}); another layer with {@code -p layer=PATH}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LayerRestoreBenchmark {

    /** The gzip'd layer, relative to the repository root. */
    @Param({"datasets/dev/django-4.2.1.tar.gz"})
    public String layer;

    private byte[] gzip;
    private byte[] tokens;
    private byte[] side;
    private byte[] tar;
    private Path tarFile;

    /** Reads the layer, decodes it partially and fully once. */
    @Setup
    public void setUp() throws IOException {
        Path path = Path.of(layer);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(path.toAbsolutePath() + " is absent: run benchmarks/run.sh fetch-dev, "
                    + "or pass -p layer=PATH");
        }
        gzip = Files.readAllBytes(path);
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        DecodeSummary summary = new PartialDecoder().decode(new ByteArrayInputStream(gzip), t, s);
        tokens = t.toByteArray();
        side = s.toByteArray();
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            tar = in.readAllBytes();
        }
        tarFile = Files.createTempFile("layer", ".tar");
        Files.write(tarFile, tar);
        System.out.printf("%n%s: compressed %d, tokens %d, side information %d, decompressed %d bytes%n",
                path.getFileName(), gzip.length, summary.tokenBytes(), summary.sideInfoBytes(), tar.length);
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(tarFile);
    }

    /** Restore by re-encoding tokens and side information to the original gzip bytes. */
    @Benchmark
    public long restoreByReencoding() throws IOException {
        return new PartialEncoder().encode(new ByteArrayInputStream(tokens), new ByteArrayInputStream(side),
                OutputStream.nullOutputStream());
    }

    /** Restore by recompressing the tar with deflate level 6 (zlib through the JDK). */
    @Benchmark
    public long recompressDeflaterLevel6() throws IOException {
        Deflater deflater = new Deflater(6, true);
        CountingSink sink = new CountingSink();
        try (DeflaterOutputStream out = new DeflaterOutputStream(sink, deflater, 64 * 1024)) {
            out.write(tar);
        } finally {
            deflater.end();
        }
        return sink.count();
    }

    /** Restore by recompressing the tar with the gzip binary at -6 (reading a file, output discarded). */
    @Benchmark
    public int recompressGzipBinary6() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("gzip", "-6", "-c", tarFile.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int rc = p.waitFor();
        if (rc != 0) {
            throw new IllegalStateException("gzip -6 exited " + rc);
        }
        return rc;
    }

    /** Partial decoding: gzip to tokens and side information. */
    @Benchmark
    public long partialDecode() throws IOException {
        return new PartialDecoder().decode(new ByteArrayInputStream(gzip), OutputStream.nullOutputStream(),
                OutputStream.nullOutputStream()).tokenBytes();
    }

    /** Full decompression (zlib through the JDK), the baseline for partial decoding. */
    @Benchmark
    public long fullDecompress() throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip), 64 * 1024)) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }
}

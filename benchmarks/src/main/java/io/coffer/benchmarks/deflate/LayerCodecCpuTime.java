package io.coffer.benchmarks.deflate;

import io.coffer.sdk.deflate.PartialDecoder;
import io.coffer.sdk.deflate.PartialEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;

/**
 * CPU time (this thread's, so a shared, loaded machine disturbs it less than wall time) of partial decoding,
 * re-encoding, full decompression, deflate level 6 recompression and deflate level 9 (what a GET of a layer stored with
 * a zlib recipe of level 9 runs: docs/FORMAT.md "Zlib recipes") over every .tgz / .tar.gz of a directory, each
 * op repeated and the fastest kept. Prints, per op, MB of compressed input per CPU second and the total CPU seconds;
 * {@link LayerRestoreBenchmark} is the JMH (wall time) view of one layer.
 *
 * <p>Run: {@code java -cp CLASSPATH io.coffer.benchmarks.deflate.LayerCodecCpuTime datasets/dev [REPEATS]}.
 */
public final class LayerCodecCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LayerCodecCpuTime() {
    }

    /** One timed operation on one layer. */
    private interface Op {
        void run() throws IOException;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "datasets/dev");
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".tgz") || p.toString().endsWith(".tar.gz")).sorted().toList();
        }
        String[] names = {"partial decode", "re-encode (restore)", "full decompress", "deflate -6 (restore)",
            "deflate -9 (recipe)"};
        double[] seconds = new double[names.length];
        long compressed = 0;
        long tokensTotal = 0;
        long tarTotal = 0;
        for (Path f : files) {
            byte[] gzip = Files.readAllBytes(f);
            ByteArrayOutputStream t = new ByteArrayOutputStream();
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            new PartialDecoder().decode(new ByteArrayInputStream(gzip), t, s);
            byte[] tokens = t.toByteArray();
            byte[] side = s.toByteArray();
            byte[] tar;
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
                tar = in.readAllBytes();
            }
            compressed += gzip.length;
            tokensTotal += tokens.length + side.length;
            tarTotal += tar.length;
            Op[] ops = {
                () -> new PartialDecoder().decode(new ByteArrayInputStream(gzip), OutputStream.nullOutputStream(),
                        OutputStream.nullOutputStream()),
                () -> new PartialEncoder().encode(new ByteArrayInputStream(tokens), new ByteArrayInputStream(side),
                        OutputStream.nullOutputStream()),
                () -> {
                    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip), 64 * 1024)) {
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                },
                () -> deflate(tar, 6),
                () -> deflate(tar, 9),
            };
            for (int i = 0; i < ops.length; i++) {
                seconds[i] += fastest(ops[i], repeats);
            }
        }
        System.out.printf("%d files: compressed %d bytes, partially decoded %d (%.2fx), decompressed %d (%.2fx)%n",
                files.size(), compressed, tokensTotal, (double) tokensTotal / compressed, tarTotal,
                (double) tarTotal / compressed);
        for (int i = 0; i < names.length; i++) {
            System.out.printf("%-22s %8.1f MB/s of compressed input per CPU second  (%.2f CPU s)%n", names[i],
                    compressed / 1e6 / seconds[i], seconds[i]);
        }
        System.out.printf("restore: re-encoding takes %.1f%% of deflate -6's CPU time%n", 100 * seconds[1] / seconds[3]);
    }

    /** Raw deflate of {@code data} at {@code level} into nothing. */
    private static void deflate(byte[] data, int level) throws IOException {
        Deflater deflater = new Deflater(level, true);
        try (DeflaterOutputStream out = new DeflaterOutputStream(OutputStream.nullOutputStream(), deflater,
                64 * 1024)) {
            out.write(data);
        } finally {
            deflater.end();
        }
    }

    private static double fastest(Op op, int repeats) throws IOException {
        long best = Long.MAX_VALUE;
        for (int r = 0; r < repeats; r++) {
            long start = THREADS.getCurrentThreadCpuTime();
            op.run();
            best = Math.min(best, THREADS.getCurrentThreadCpuTime() - start);
        }
        return best / 1e9;
    }
}

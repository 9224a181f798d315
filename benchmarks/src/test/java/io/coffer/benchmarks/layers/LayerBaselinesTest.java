package io.coffer.benchmarks.layers;

import static io.coffer.benchmarks.layers.LayerTestData.gzip;
import static io.coffer.benchmarks.layers.LayerTestData.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.benchmarks.layers.EngineLayerRatio.Stored;
import io.coffer.benchmarks.layers.LayerBaselines.Figures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20's baselines on one counting: MLE-512K (decompressed, fixed 512 KiB chunks, compressed per chunk or not),
 * LSH-MLE and SimEnc, each the blobs of a real engine store, over two versions of a generated layer whose second
 * version has text inserted near its start (fixed chunks lose their alignment; the layer path's sub-chunks do not).
 */
class LayerBaselinesTest {
    @TempDir
    Path dir;



    @Test
    void allThreeAreCountedFromRealStoresAndTheLayerPathsKeepWhatFixedChunksLoseToAShift() throws Exception {
        byte[] v1 = text(1, 1_300_000);
        ByteArrayOutputStream shifted = new ByteArrayOutputStream();
        shifted.write(v1, 0, 1000);
        shifted.write("an inserted line\n".getBytes(StandardCharsets.US_ASCII));
        shifted.write(v1, 1000, v1.length - 1000);
        byte[] v2 = shifted.toByteArray();
        byte[] gz1 = gzip(v1);
        byte[] gz2 = gzip(v2);
        Files.write(dir.resolve("pkg-1.0.0.tgz"), gz1);
        Files.write(dir.resolve("pkg-1.0.1.tgz"), gz2);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Figures f;
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            f = LayerBaselines.run(dir, "high", 1024, 64, out);
        }
        for (Stored s : List.of(f.mle(), f.mleUncompressed(), f.lsh(), f.simEnc())) {
            assertThat(s.files()).isEqualTo(2);
            assertThat(s.original()).isEqualTo(gz1.length + gz2.length);
        }
        // uncompressed fixed chunks: nothing of v2 lines up with v1, so both are stored whole
        assertThat(f.mleUncompressed().packs()).isGreaterThanOrEqualTo(v1.length + v2.length);
        assertThat(f.mle().stored()).isLessThan(f.mleUncompressed().stored());
        // the shifted version deduplicates in the layer path (sub-chunks re-align), not with fixed chunks
        assertThat(f.simEnc().stored()).isLessThan(f.mle().stored() * 2 / 3);
        assertThat(f.lsh().stored()).isLessThan(f.mle().stored() * 2 / 3);
        String[] lines = printed.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertThat(lines[lines.length - 1]).isEqualTo(String.format(java.util.Locale.ROOT, "coffer-layers ratio %.3f",
                f.simEnc().ratio()));
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("LSH-MLE FirstFit").contains("SimEnc clusters")
                .contains("target SimEnc >= 2x less than MLE-512K").contains("target SimEnc >= 30 % less than LSH-MLE");
    }

    @Test
    void theTargetsAreMetAtTwiceLessThanMleAndThirtyPercentLessThanLsh() {
        Stored simEnc = new Stored(1, 1000, 100, 90, 10);
        Figures atTargets = new Figures(stored(200), stored(900), stored(143), simEnc);
        Figures below = new Figures(stored(199), stored(900), stored(142), simEnc);
        assertThat(report(atTargets)).contains("2.000x less (9.000x").contains("30.1 % less: met")
                .contains("MLE-512K: 2.000x less (9.000x less than the paper's uncompressed MLE-512K): met");
        assertThat(report(below)).contains("MLE-512K: 1.990x less").contains(": missed\n")
                .contains("29.6 % less: missed").endsWith("coffer-layers ratio 10.000\n");
    }

    private static Stored stored(double bytes) {
        return new Stored(1, 1000, Math.round(bytes), Math.round(bytes), 0);
    }

    private static String report(Figures f) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            LayerBaselines.report(f, out);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }
}

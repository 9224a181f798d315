package io.coffer.benchmarks.layers;

import static io.coffer.benchmarks.layers.LayerTestData.gzip;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DedupThroughputTest {


    private static byte[] text(long seed, int size) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(size + 16);
        while (sb.length() < size) {
            sb.append("name").append(r.nextInt(2000)).append(r.nextInt(7) == 0 ? '\n' : ' ');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void tokenStreamsAreThoseOfThePartialDecoderOnAnyNumberOfThreads() throws Exception {
        List<byte[]> layers = List.of(gzip(text(1, 300_000)), gzip(text(2, 200_000)),
                gzip(text(3, 100_000)));
        List<byte[]> one = DedupThroughput.decodeAll(layers, 1);
        List<byte[]> two = DedupThroughput.decodeAll(layers, 2);
        assertThat(one).hasSize(3);
        for (int i = 0; i < layers.size(); i++) {
            LayerSpaces.Partial p = LayerSpaces.partial(layers.get(i), true);
            assertThat(p.reproducible()).isTrue();
            assertThat(one.get(i)).isEqualTo(p.tokens());
            assertThat(two.get(i)).isEqualTo(p.tokens());
        }
    }

    @Test
    void theReportGivesEachStepOnOneAndTwoThreadsPerWallAndCpuSecond(@TempDir Path dir) throws Exception {
        byte[] v1 = text(4, 600_000);
        byte[] v2 = v1.clone();
        v2[1000] = 'X';
        Files.write(dir.resolve("pkg-1.0.tgz"), gzip(v1));
        Files.write(dir.resolve("pkg-1.1.tgz"), gzip(v2));
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DedupThroughput.run(dir, 1, 2, new PrintStream(buf, true, StandardCharsets.UTF_8));
        String report = buf.toString(StandardCharsets.UTF_8);
        assertThat(report).contains("2 files").contains("(a) partial decoding").contains("(b) dedup step");
        for (String line : new String[] {"1 thread(s):", "2 thread(s):", "LSH-MLE 1 thread(s):",
                "LSH-MLE 2 thread(s):", "SimEnc  1 thread(s):", "SimEnc  2 thread(s):"}) {
            assertThat(report).contains(line);
        }
        assertThat(report)
                .containsPattern("SimEnc  2 thread\\(s\\): +[0-9.]+ MB per wall s, +([0-9.]+|n/a) per CPU s");
        assertThat(report).doesNotContain("NaN").doesNotContain("Infinity");
    }

    @Test
    void aTimeBelowTheClocksResolutionIsNoRate() {
        assertThat(DedupThroughput.rate(2_000_000, 0.5)).isEqualTo("   4.0");
        assertThat(DedupThroughput.rate(2_000_000, 0)).isEqualTo("   n/a");
    }
}

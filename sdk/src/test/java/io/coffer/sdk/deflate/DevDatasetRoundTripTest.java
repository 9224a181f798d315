package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every .tgz / .tar.gz of the dev dataset (datasets/dev at the repository root, git-ignored; benchmarks/run.sh
 * fetch-dev gets it) is re-encoded bit-exactly, compared byte by byte (the verifier's file-and-digest path is
 * {@link ReproducibilityVerifierTest}'s). Skipped, with a message, where the dataset is absent.
 */
class DevDatasetRoundTripTest {

    @Test
    void everyFileOfTheDevDatasetIsReproducibleBitExactly() throws IOException {
        Path dataset = datasetDirectory();
        assumeTrue(dataset != null, "datasets/dev is absent (benchmarks/run.sh fetch-dev): test skipped");
        List<Path> files;
        try (Stream<Path> s = Files.list(dataset)) {
            files = s.filter(p -> p.toString().endsWith(".tgz") || p.toString().endsWith(".tar.gz")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        for (Path f : files) {
            byte[] gzip = Files.readAllBytes(f);
            ByteArrayOutputStream tokens = new ByteArrayOutputStream(gzip.length * 2);
            ByteArrayOutputStream side = new ByteArrayOutputStream();
            DecodeSummary summary = new PartialDecoder().decode(new ByteArrayInputStream(gzip), tokens, side);
            assertThat(summary.compressedBytes()).as("%s bytes read", f.getFileName()).isEqualTo(gzip.length);
            ComparingOutput out = new ComparingOutput(gzip);
            new PartialEncoder().encode(new ByteArrayInputStream(tokens.toByteArray()),
                    new ByteArrayInputStream(side.toByteArray()), out);
            assertThat(out.mismatch).as("%s: first differing offset", f.getFileName()).isEqualTo(-1);
            assertThat(out.pos).as("%s: bytes re-encoded", f.getFileName()).isEqualTo(gzip.length);
        }
    }

    /** Compares what is written with the original as it comes, keeping nothing. */
    private static final class ComparingOutput extends OutputStream {
        private final byte[] original;
        long mismatch = -1;
        int pos;

        ComparingOutput(byte[] original) {
            this.original = original;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++, pos++) {
                if (mismatch < 0 && (pos >= original.length || original[pos] != b[off + i])) {
                    mismatch = pos;
                }
            }
        }
    }

    /** datasets/dev found from the module directory (tests run in sdk/) or the repository root. */
    private static Path datasetDirectory() {
        for (Path p : List.of(Path.of("..", "datasets", "dev"), Path.of("datasets", "dev"))) {
            if (Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }
}

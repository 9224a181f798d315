package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every .tgz / .tar.gz of the dev dataset (datasets/dev at the repository root, git-ignored; benchmarks/run.sh
 * fetch-dev gets it) is reproducible bit-exactly. Skipped, with a message, where the dataset is absent.
 */
class DevDatasetRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void everyFileOfTheDevDatasetIsReproducibleBitExactly() throws IOException {
        Path dataset = datasetDirectory();
        assumeTrue(dataset != null, "datasets/dev is absent (benchmarks/run.sh fetch-dev): test skipped");
        List<Path> files;
        try (Stream<Path> s = Files.list(dataset)) {
            files = s.filter(p -> p.toString().endsWith(".tgz") || p.toString().endsWith(".tar.gz")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        ReproducibilityVerifier verifier = new ReproducibilityVerifier();
        for (Path f : files) {
            Verdict v;
            try (InputStream in = Files.newInputStream(f)) {
                v = verifier.verify(in, dir.resolve("tokens"), dir.resolve("side"));
            }
            assertThat(v.reproducible()).as("%s: %s", f.getFileName(), v).isTrue();
            assertThat(v.summary().compressedBytes()).isEqualTo(Files.size(f));
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

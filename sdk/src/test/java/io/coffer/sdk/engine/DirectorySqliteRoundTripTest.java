package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.chunk.ChunkerSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Round trips on the embedded defaults: a directory backend and SQLite. */
class DirectorySqliteRoundTripTest extends EngineRoundTripTest {
    @Override
    Coffer open(Path dir, ChunkerSpec chunker) {
        return Coffer.builder().directory(dir).chunker(chunker.newChunker()).build();
    }

    @Test
    void aNewStoreHasEveryPackAndManifestFolderOnceOpened(@TempDir Path dir) throws Exception {
        try (Coffer ignored = Coffer.builder().directory(dir).build()) {
            Path blobs = dir.resolve("blobs");
            for (String folder : BackendLayout.folders()) {
                assertThat(blobs.resolve(folder)).as(folder).isDirectory();
            }
            try (var shards = Files.list(blobs.resolve(BackendLayout.PACKS))) {
                assertThat(shards.count()).isEqualTo(256);
            }
        }
    }
}

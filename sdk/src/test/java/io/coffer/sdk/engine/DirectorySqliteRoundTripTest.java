package io.coffer.sdk.engine;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.chunk.ChunkerSpec;
import java.nio.file.Path;

/** Round trips on the embedded defaults: a directory backend and SQLite. */
class DirectorySqliteRoundTripTest extends EngineRoundTripTest {
    @Override
    Coffer open(Path dir, ChunkerSpec chunker) {
        return Coffer.builder().directory(dir).chunker(chunker.newChunker()).build();
    }
}

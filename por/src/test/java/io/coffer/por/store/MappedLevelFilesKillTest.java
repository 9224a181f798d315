package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.code.Part;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kill -9 of a JVM that wrote level records and read them back through mappings: what it forced, and what it wrote
 * after its last force (the page cache holds it), reads back whole, whether the next store maps the files or not.
 */
class MappedLevelFilesKillTest {
    @TempDir
    Path dir;

    @Test
    void aKillBetweenWritesToAMappedStoreAndTheirForceLosesNothingWritten() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(List.of(java.toString(), "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), MappedWritesThenKilled.class.getName(), dir.toString()))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo(MappedWritesThenKilled.READY);
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no close, no force
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        for (long chunkBytes : new long[] {0, MappedWritesThenKilled.CHUNK_BYTES, FileLevelStore.CHUNK_BYTES}) {
            try (FileLevelStore store = new FileLevelStore(dir, "h", MappedWritesThenKilled.PARAMS,
                    MappedWritesThenKilled.WIDTH, ByteOrder.nativeOrder(), MappedWritesThenKilled.SLOTS,
                    chunkBytes)) {
                int[] into = new int[MappedWritesThenKilled.WIDTH];
                for (int level = 0; level <= MappedWritesThenKilled.PARAMS.k(); level++) {
                    for (Part part : Part.values()) {
                        for (int i = 0; i < store.partSize(level); i++) {
                            store.read(level, part, i, into);
                            assertThat(into).as("level %d %s %d, read with chunks of %d bytes", level, part, i,
                                    chunkBytes).isEqualTo(MappedWritesThenKilled.vector(level, part, i));
                        }
                    }
                }
            }
        }
    }
}

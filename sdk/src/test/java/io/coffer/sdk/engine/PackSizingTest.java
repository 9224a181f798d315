package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.chunk.FixedChunker;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a body is cut into packs: full packs while much of the body is left, then packs that halve, so that the one
 * uploaded after the body's last byte (which the client waits for) is small; a body of at most one pack stays one
 * pack.
 */
class PackSizingTest {
    private static final int PACK = 1 << 20;
    private static final int CHUNK = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void bodyLongerThanOnePackEndsInPacksThatHalve() throws IOException {
        // 81 chunks of 64 KiB and one of 36 KiB; a full 1 MiB pack takes 15 sealed 64 KiB chunks
        int size = 5 * (1 << 20) + 100 * 1024;
        try (TestEngine e = open()) {
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", size), TestData.stream(7, size));

            // four full packs while more than two packs' worth is left, then each pack takes a little over half of
            // what is left (11 chunks, 6, 3) down to an eighth of a pack: the last pack holds the last two chunks
            // (100 KiB) instead of the seven a full-packs-only cut would leave for after the body's end
            List<Long> packs = packSizes(e);
            int[] chunks = {15, 15, 15, 15, 11, 6, 3};
            assertThat(packs).hasSize(chunks.length + 1);
            for (int i = 0; i < chunks.length; i++) {
                assertThat(packs.get(i)).isBetween((long) chunks[i] * CHUNK, (chunks[i] + 1L) * CHUNK);
            }
            assertThat(packs.get(chunks.length)).isBetween(100L * 1024, 101L * 1024 + 1024);
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                assertThat(TestData.md5Hex(c.stream())).isEqualTo(TestData.md5Hex(TestData.stream(7, size)));
            }
        }
    }

    @Test
    void bodyOfAtMostOnePackIsOnePack() throws IOException {
        int size = 15 * CHUNK;
        try (TestEngine e = open()) {
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", size), TestData.stream(8, size));

            assertThat(packSizes(e)).hasSize(1);
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(8, size));
            }
        }
    }

    @Test
    void bodyOfUnknownLengthIsCutInFullPacksOnly() throws IOException {
        int size = 5 * (1 << 20) + 100 * 1024;
        try (TestEngine e = open()) {
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", -1), TestData.stream(9, size));

            // nothing tells the writer where the body ends: five full packs and the rest (7 chunks) in one
            List<Long> packs = packSizes(e);
            assertThat(packs).hasSize(6);
            assertThat(packs.get(5)).isBetween(6L * CHUNK, 7L * CHUNK);
        }
    }

    private TestEngine open() throws IOException {
        TestEngine e = TestEngine.open(dir, b -> b.packSize(PACK).chunker(new FixedChunker(CHUNK)));
        e.coffer.createBucket("bkt", "t");
        return e;
    }

    /** Sizes of the pack blobs on the backend, largest first. */
    private static List<Long> packSizes(TestEngine e) throws IOException {
        return e.blobs.list(BackendLayout.PACKS).toList().stream().map(BlobInfo::size)
                .sorted((a, b) -> Long.compare(b, a)).toList();
    }
}

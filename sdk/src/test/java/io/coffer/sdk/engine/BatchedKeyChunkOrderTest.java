package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.chunk.ChunkerSpec;
import io.coffer.sdk.key.ConvergentKeySource;
import io.coffer.sdk.key.DedupPolicy;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: with a key source asked in batches (a remote key server: 32 chunks a call), chunks wait in the writer's
 * window for their keys, while a chunk too short to deduplicate (under the dedup policy's minimum, 1 KiB by default)
 * gets a random key at once. Such a chunk must still take its own place in the manifest, not jump ahead of the
 * chunks waiting before it: the object would read back reordered, with its ETag still that of the bytes sent.
 */
class BatchedKeyChunkOrderTest {
    @TempDir
    Path dir;

    private static TestEngine engine(Path dir, ChunkerSpec chunker, DedupPolicy dedup) throws Exception {
        return TestEngine.open(dir, b -> b.keySource(new ConvergentKeySource(new byte[] {7, 7, 7}))
                .keyBatchChunks(32).chunker(chunker.newChunker()).dedupPolicy(dedup));
    }

    private static byte[] readBack(TestEngine e, String key) throws Exception {
        try (ObjectContent c = e.coffer.getObject("bkt", key)) {
            return c.stream().readAllBytes();
        }
    }

    /**
     * The object the soak of 2026-11-27 00:44 UTC found "lost" (soak/c95/k11, client 95's 121st operation: 582,379
     * bytes from SplittableRandom(-6800397862450424957), which the default chunker cuts into 582,259 + 120 bytes). It
     * read back as its 120-byte tail followed by the rest, MD5 ddc64023ce3b5db857d15763b6ee6668.
     */
    @Test
    void theSoaksObjectWithA120ByteLastChunkReadsBackAsWritten() throws Exception {
        byte[] body = new byte[582_379];
        new SplittableRandom(-6800397862450424957L).nextBytes(body);
        assertThat(TestData.md5Hex(body)).isEqualTo("bd26dbfac557fd3e82f8fe4024b261df");
        try (TestEngine e = engine(dir, ChunkerSpec.DEFAULT, DedupPolicy.DEFAULT)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "soak/c95/k11", body.length),
                    new ByteArrayInputStream(body));
            byte[] got = readBack(e, "soak/c95/k11");
            assertThat(TestData.md5Hex(got)).isEqualTo("bd26dbfac557fd3e82f8fe4024b261df")
                    .isEqualTo(e.coffer.headObject("bkt", "soak/c95/k11").etag());
        }
    }

    @Test
    void aLastChunkBelowTheDedupMinimumStaysLast() throws Exception {
        int size = 5 * 4096 + 100; // five 4 KiB chunks waiting for keys, then 100 bytes that never dedup
        try (TestEngine e = engine(dir, ChunkerSpec.fixed(4096), DedupPolicy.DEFAULT)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", size), TestData.stream(1, size));
            assertThat(TestData.md5Hex(readBack(e, "k"))).isEqualTo(TestData.md5Hex(TestData.bytes(1, size)));
        }
    }

    @Test
    void aPartsLastChunkBelowTheDedupMinimumStaysLast() throws Exception {
        int size = 5 * 4096 + 100; // parts go through the same writer as PUTs
        try (TestEngine e = engine(dir, ChunkerSpec.fixed(4096), DedupPolicy.DEFAULT)) {
            e.coffer.createBucket("bkt", "t");
            String upload = e.coffer.createMultipartUpload("bkt", "mp");
            String etag = e.coffer.uploadPart("bkt", "mp", upload, 1, size, TestData.stream(3, size)).etag();
            e.coffer.completeMultipartUpload("bkt", "mp", upload, List.of(new CompletedPart(1, "\"" + etag + "\"")));
            String want = TestData.md5Hex(TestData.bytes(3, size));
            assertThat(etag).isEqualTo(want);
            assertThat(TestData.md5Hex(readBack(e, "mp"))).isEqualTo(want);
        }
    }

    @Test
    void chunksBelowTheDedupMinimumKeepTheirPlaceAmongBatchedOnes() throws Exception {
        // FastCDC 1-16 KiB chunks against a 4 KiB dedup minimum: short and long chunks alternate all through
        int size = 256 << 10;
        try (TestEngine e = engine(dir, ChunkerSpec.fastCdc(1 << 10, 4 << 10, 16 << 10),
                new DedupPolicy(4 << 10, List.of()))) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", size), TestData.stream(2, size));
            String want = TestData.md5Hex(TestData.bytes(2, size));
            assertThat(TestData.md5Hex(readBack(e, "k"))).isEqualTo(want);
            // the same bytes again deduplicate (the batched chunks keep their message-locked keys) and read back too
            e.coffer.putObject(PutObjectRequest.of("bkt", "again", size), TestData.stream(2, size));
            assertThat(TestData.md5Hex(readBack(e, "again"))).isEqualTo(want);
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Equal data is stored once: across keys, and across an edit that shifts every byte after it. */
class DeduplicationTest {
    private static final int SIZE = 50 << 20;

    @TempDir
    Path dir;

    @Test
    void sameObjectUnderTwoKeysGrowsBackendByUnderOnePercent() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "first", SIZE), TestData.stream(1, SIZE));
            long afterFirst = e.backendBytes();
            assertThat(afterFirst).isGreaterThanOrEqualTo(SIZE);
            e.coffer.putObject(PutObjectRequest.of("bkt", "second", SIZE), TestData.stream(1, SIZE));
            long growth = e.backendBytes() - afterFirst;
            assertThat(growth).isLessThan(SIZE / 100);
            assertThat(e.coffer.headObject("bkt", "second").etag()).isEqualTo(e.coffer.headObject("bkt", "first").etag());
        }
    }

    @Test
    void oneByteInsertedInTheMiddleSharesAtLeastNinetyPercentOfChunks() throws Exception {
        byte[] original = TestData.bytes(2, SIZE);
        byte[] edited = new byte[SIZE + 1];
        System.arraycopy(original, 0, edited, 0, SIZE / 2);
        edited[SIZE / 2] = 42;
        System.arraycopy(original, SIZE / 2, edited, SIZE / 2 + 1, SIZE - SIZE / 2);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "v1", SIZE), new ByteArrayInputStream(original));
            long afterFirst = e.backendBytes();
            e.coffer.putObject(PutObjectRequest.of("bkt", "v2", SIZE + 1), new ByteArrayInputStream(edited));
            List<ChunkId> v1 = chunks(e, "v1");
            List<ChunkId> v2 = chunks(e, "v2");
            Set<ChunkId> shared = new HashSet<>(v1);
            long sharedCount = v2.stream().filter(shared::contains).count();
            assertThat((double) sharedCount / v2.size()).isGreaterThanOrEqualTo(0.9);
            // the edit costs about one or two average chunks, not the half of the object after it
            assertThat(e.backendBytes() - afterFirst).isLessThan(SIZE / 10);
        }
    }

    private static List<ChunkId> chunks(TestEngine e, String key) throws Exception {
        ObjectRecord r = e.meta.object("bkt", key).orElseThrow();
        Manifest m = StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
        return m.entries().stream().map(x -> x.id()).toList();
    }
}

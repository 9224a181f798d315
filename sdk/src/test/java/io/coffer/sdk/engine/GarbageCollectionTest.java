package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.GcReport;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleted data is reclaimed; data still referenced survives every pass. */
class GarbageCollectionTest {
    @TempDir
    Path dir;

    @Test
    void deletingEverythingReclaimsEveryPack() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            e.coffer.createBucket("bkt", "t");
            for (int i = 0; i < 5; i++) {
                e.coffer.putObject(PutObjectRequest.of("bkt", "k" + i, 3_000_000), TestData.stream(i, 3_000_000));
            }
            for (int i = 0; i < 5; i++) {
                e.coffer.deleteObject("bkt", "k" + i);
            }
            GcReport first = e.collectGarbage();
            assertThat(first.packsRetired()).isPositive();
            // retired packs are deleted once the grace period (zero here) has passed since retirement
            e.collectGarbage();
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isEmpty();
            assertThat(e.blobs.list(BackendLayout.MANIFESTS).toList()).isEmpty();
            assertThat(e.meta.stats().packBytes()).isZero();
        }
    }

    @Test
    void deletingABucketWithUploadsInProgressReclaimsTheirParts() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            e.coffer.createBucket("bkt", "t");
            String id = e.coffer.createMultipartUpload("bkt", "mp");
            e.coffer.uploadPart("bkt", "mp", id, 1, 3_000_000, TestData.stream(1, 3_000_000));
            e.coffer.createMultipartUpload("bkt", "other");
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isNotEmpty();

            e.coffer.deleteBucket("bkt");
            assertThat(e.coffer.listBuckets()).isEmpty();
            assertThat(e.collectGarbage().packsRetired()).isPositive();
            e.collectGarbage();
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isEmpty();
            assertThat(e.meta.stats().packBytes()).isZero();
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void partlyDeadPacksAreRewrittenAndSurvivorsStayReadable() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO).packSize(16 << 20))) {
            e.coffer.createBucket("bkt", "t");
            // "head" shares its first chunks with "whole": once "whole" is gone its pack is partly dead
            int whole = 12 << 20;
            e.coffer.putObject(PutObjectRequest.of("bkt", "whole", whole), TestData.stream(5, whole));
            e.coffer.putObject(PutObjectRequest.of("bkt", "head", 4 << 20), TestData.stream(5, 4 << 20));
            long before = e.meta.stats().packBytes();
            e.coffer.deleteObject("bkt", "whole");
            GcReport report = e.collectGarbage();
            e.collectGarbage();
            assertThat(report.packsRewritten()).isPositive();
            assertThat(report.bytesCopied()).isPositive().isLessThan(whole / 2);
            assertThat(e.meta.stats().packBytes()).isLessThan(before / 2);
            try (ObjectContent c = e.coffer.getObject("bkt", "head")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(5, 4 << 20));
            }
            assertThat(e.coffer.fsck(true).clean()).isTrue();
            assertThat(e.coffer.fsck(true).orphans()).isEmpty();
        }
    }

    @Test
    void orphansOfCrashedWritesAreReportedThenCollectedAfterTheGracePeriod() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ofMillis(800)))) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "kept", 100_000), TestData.stream(1, 100_000));
            String orphanPack = BackendLayout.pack(BackendLayout.newId());
            String orphanManifest = BackendLayout.manifest(BackendLayout.newId());
            e.blobs.put(orphanPack, BlobContent.of(new byte[100]));
            e.blobs.put(orphanManifest, BlobContent.of(new byte[100]));
            assertThat(e.coffer.fsck(false).orphans()).containsExactlyInAnyOrder(orphanPack, orphanManifest);
            e.coffer.collectGarbage();
            assertThat(e.blobs.head(orphanPack)).isPresent(); // younger than the grace period: could be in flight
            Thread.sleep(1100);
            e.coffer.collectGarbage();
            assertThat(e.blobs.head(orphanPack)).isEmpty();
            assertThat(e.blobs.head(orphanManifest)).isEmpty();
            try (ObjectContent c = e.coffer.getObject("bkt", "kept")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(1, 100_000));
            }
        }
    }
}

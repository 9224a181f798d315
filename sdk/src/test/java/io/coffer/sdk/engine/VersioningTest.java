package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.DeletedVersion;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bucket versioning in the engine: every version is a sealed manifest that stays readable by its id, delete markers,
 * the null version, copies from a version, garbage collection keeping noncurrent versions' chunks, and reindex
 * restoring versions, delete markers and the bucket's state from the backend alone.
 */
class VersioningTest {
    /** Above the inline limit: chunked into packs. */
    private static final int BIG = 300_000;

    @TempDir
    Path dir;

    private static ObjectInfo put(Coffer c, String key, int seed, int size) {
        return c.putObject(PutObjectRequest.of("vbkt", key, size), TestData.stream(seed, size));
    }

    private static byte[] read(Coffer c, String key, String versionId) throws IOException {
        try (ObjectContent content = c.getObject("vbkt", key, versionId, null, info -> { })) {
            return content.stream().readAllBytes();
        }
    }

    private static void assertCode(ErrorCode code, Runnable action) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }

    private static List<String> versions(Coffer c) {
        return c.listObjectVersions("vbkt", null, null, null, null, 1000).versions().stream()
                .map(v -> v.key() + ":" + (v.deleteMarker() ? "marker" : v.size()) + (v.latest() ? ":latest" : ""))
                .toList();
    }

    @Test
    void everyVersionStaysReadableByItsIdAndADeleteMarkerHidesTheKey() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("vbkt", "alice");
            assertThat(e.coffer.bucketVersioning(b)).isEqualTo(BucketVersioning.UNVERSIONED);
            ObjectInfo unversioned = put(e.coffer, "k", 1, BIG);
            assertThat(unversioned.versionId()).isNull();
            e.coffer.putBucketVersioning(b, BucketVersioning.ENABLED);
            assertThat(e.coffer.bucketVersioning(b)).isEqualTo(BucketVersioning.ENABLED);
            ObjectInfo v1 = put(e.coffer, "k", 2, BIG);
            ObjectInfo v2 = put(e.coffer, "k", 3, 100);
            assertThat(v1.versionId()).matches("[0-9a-f]{32}");
            assertThat(v2.versionId()).isNotEqualTo(v1.versionId()).satisfies(
                    id -> assertThat(BucketVersioning.isWellFormedId(id)).isTrue());
            assertThat(read(e.coffer, "k", null)).isEqualTo(TestData.bytes(3, 100));
            assertThat(read(e.coffer, "k", v1.versionId())).isEqualTo(TestData.bytes(2, BIG));
            assertThat(read(e.coffer, "k", "null")).isEqualTo(TestData.bytes(1, BIG));
            assertThat(e.coffer.headObject("vbkt", "k", v1.versionId()).versionId()).isEqualTo(v1.versionId());

            DeletedVersion marker = e.coffer.deleteObjectVersion(b, "k", null, null);
            assertThat(marker.deleteMarker()).isTrue();
            assertCode(ErrorCode.NO_SUCH_KEY, () -> e.coffer.headObject("vbkt", "k"));
            assertCode(ErrorCode.METHOD_NOT_ALLOWED, () -> e.coffer.headObject("vbkt", "k", marker.versionId()));
            assertCode(ErrorCode.NO_SUCH_VERSION, () -> e.coffer.headObject("vbkt", "k", "0".repeat(32)));
            assertCode(ErrorCode.INVALID_ARGUMENT, () -> e.coffer.headObject("vbkt", "k", "not-a-version"));
            assertThat(e.coffer.listObjects("vbkt", "", null, 10).objects()).isEmpty();
            assertThat(versions(e.coffer)).containsExactly("k:marker:latest", "k:100", "k:" + BIG, "k:" + BIG);
            assertCode(ErrorCode.BUCKET_NOT_EMPTY, () -> e.coffer.deleteBucket("vbkt"));

            // a copy of an older version is a new version with that version's content, sharing its chunks
            ObjectInfo copy = e.coffer.copyObject(CopySource.of("vbkt", "k").atVersion(v1.versionId()), "vbkt", "copy",
                    null, null);
            assertThat(copy.versionId()).isNotNull();
            assertThat(read(e.coffer, "copy", null)).isEqualTo(TestData.bytes(2, BIG));

            // removing the marker for good brings v2 back
            assertThat(e.coffer.deleteObjectVersion(b, "k", marker.versionId(), null))
                    .isEqualTo(new DeletedVersion(marker.versionId(), true));
            assertThat(e.coffer.headObject("vbkt", "k").versionId()).isEqualTo(v2.versionId());
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void aCompletedMultipartUploadIsANewVersion() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(1))) {
            Bucket b = e.coffer.createBucket("vbkt", "alice");
            e.coffer.putBucketVersioning(b, BucketVersioning.ENABLED);
            ObjectInfo first = put(e.coffer, "mp", 1, 50);
            String upload = e.coffer.createMultipartUpload("vbkt", "mp");
            String etag = e.coffer.uploadPart("vbkt", "mp", upload, 1, BIG, TestData.stream(2, BIG)).etag();
            ObjectInfo done = e.coffer.completeMultipartUpload("vbkt", "mp", upload,
                    List.of(new CompletedPart(1, etag)));
            assertThat(done.versionId()).isNotNull().isNotEqualTo(first.versionId());
            assertThat(read(e.coffer, "mp", first.versionId())).isEqualTo(TestData.bytes(1, 50));
            assertThat(read(e.coffer, "mp", done.versionId())).isEqualTo(TestData.bytes(2, BIG));
        }
    }

    @Test
    void whileSuspendedWritesAndDeletesReplaceTheNullVersionAndKeepTheOthers() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("vbkt", "alice");
            e.coffer.putBucketVersioning(b, BucketVersioning.ENABLED);
            ObjectInfo v1 = put(e.coffer, "k", 1, 10);
            e.coffer.putBucketVersioning(b, BucketVersioning.SUSPENDED);
            assertThat(put(e.coffer, "k", 2, 20).versionId()).isNull();
            put(e.coffer, "k", 3, 30);
            assertThat(versions(e.coffer)).containsExactly("k:30:latest", "k:10");
            assertThat(e.coffer.deleteObjectVersion(b, "k", null, null)).isEqualTo(new DeletedVersion("null", true));
            assertThat(versions(e.coffer)).containsExactly("k:marker:latest", "k:10");
            assertThat(read(e.coffer, "k", v1.versionId())).isEqualTo(TestData.bytes(1, 10));
            assertCode(ErrorCode.INVALID_ARGUMENT,
                    () -> e.coffer.putBucketVersioning(b, BucketVersioning.UNVERSIONED));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void garbageCollectionKeepsEveryChunkANoncurrentVersionReferences() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            Bucket b = e.coffer.createBucket("vbkt", "alice");
            e.coffer.putBucketVersioning(b, BucketVersioning.ENABLED);
            ObjectInfo old = put(e.coffer, "k", 1, 3_000_000);
            put(e.coffer, "k", 2, 3_000_000);
            e.coffer.deleteObject("vbkt", "k");
            e.collectGarbage();
            e.collectGarbage();
            assertThat(read(e.coffer, "k", old.versionId())).isEqualTo(TestData.bytes(1, 3_000_000));
            assertThat(e.coffer.fsck(true).clean()).isTrue();

            // once the versions are deleted for good, their packs go
            for (ObjectVersion v : e.coffer.listObjectVersions("vbkt", null, null, null, null, 100).versions()) {
                e.coffer.deleteObjectVersion(b, v.key(), v.versionId(), null);
            }
            assertThat(e.collectGarbage().packsRetired()).isPositive();
            e.collectGarbage();
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isEmpty();
            e.coffer.deleteBucket("vbkt");
        }
    }

    @Test
    void reindexRestoresVersionsDeleteMarkersAndTheBucketState() throws Exception {
        List<ObjectVersion> before;
        String v1;
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("vbkt", "alice");
            put(e.coffer, "a", 1, 10);
            Thread.sleep(2);
            e.coffer.putBucketVersioning(b, BucketVersioning.ENABLED);
            v1 = put(e.coffer, "a", 2, BIG).versionId();
            Thread.sleep(2); // versions of a key in one millisecond are ordered by id on reindex
            put(e.coffer, "a", 3, 30);
            Thread.sleep(2);
            e.coffer.deleteObject("vbkt", "a");
            put(e.coffer, "b", 4, 40);
            Thread.sleep(2);
            e.coffer.putBucketVersioning(b, BucketVersioning.SUSPENDED);
            put(e.coffer, "b", 5, 50);
            before = e.coffer.listObjectVersions("vbkt", null, null, null, null, 1000).versions();
            assertThat(before).hasSize(6);
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.clean()).isTrue();
            assertThat(report.objects()).isEqualTo(1);
            VersionPage after = rebuilt.listObjectVersions("vbkt", null, null, null, null, 1000);
            assertThat(after.versions()).isEqualTo(before);
            assertThat(rebuilt.bucketVersioning(rebuilt.headBucket("vbkt"))).isEqualTo(BucketVersioning.SUSPENDED);
            assertThat(read(rebuilt, "a", v1)).isEqualTo(TestData.bytes(2, BIG));
            assertThat(read(rebuilt, "b", null)).isEqualTo(TestData.bytes(5, 50));
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }
}

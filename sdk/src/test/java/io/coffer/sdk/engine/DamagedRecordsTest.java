package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fsck --read-data and reindex open every record on the backend (manifest blobs, bucket records, packs, tombstones),
 * compare them with the metadata store, and name each damaged one; an undamaged store stays clean.
 */
class DamagedRecordsTest {
    @TempDir
    Path dir;

    private int rebuilds;

    @Test
    void undamagedStoreIsCleanForFsckAndReindex() throws Exception {
        try (TestEngine e = store()) {
            assertThat(e.coffer.fsck(true).damaged()).isEmpty();
            ReindexReport r = reindex(e);
            assertThat(r.damaged()).isEmpty();
            assertThat(r.objects()).isEqualTo(3);
        }
    }

    @Test
    void flippedByteInAManifestBlobIsNamedByFsckAndReindex() throws Exception {
        try (TestEngine e = store()) {
            String blob = BackendLayout.manifest(e.meta.object("bkt", "big").orElseThrow().versionId());
            damage(e, blob, b -> flip(b, b.length / 2));
            assertDamageNamed(e, blob);
        }
    }

    @Test
    void truncatedManifestBlobIsNamedByFsckAndReindex() throws Exception {
        try (TestEngine e = store()) {
            String blob = BackendLayout.manifest(e.meta.object("bkt", "small").orElseThrow().versionId());
            damage(e, blob, b -> Arrays.copyOf(b, b.length - 1));
            assertDamageNamed(e, blob);
        }
    }

    @Test
    void damagedBucketRecordIsNamedByFsckAndReindex() throws Exception {
        try (TestEngine e = store()) {
            String blob = StoredRecords.bucketBlob(e.masterKey, "bkt");
            damage(e, blob, b -> flip(b, b.length - 3));
            FsckReport f = e.coffer.fsck(true);
            assertThat(f.damaged()).anySatisfy(d -> assertThat(d).contains(blob).contains("does not open"));
            ReindexReport r = reindex(e);
            assertThat(r.damaged()).anySatisfy(d -> assertThat(d).startsWith(blob + ":"));
            assertThat(r.buckets()).isZero();
            // the objects of a bucket whose record is lost are not restored either, and each is named
            assertThat(r.damaged()).anySatisfy(d -> assertThat(d).contains("bucket record is missing or damaged"));
        }
    }

    @Test
    void truncatedPackIsNamedByFsckAndReindex() throws Exception {
        try (TestEngine e = store()) {
            String pack = e.blobs.list(BackendLayout.PACKS).toList().get(0).name();
            damage(e, pack, b -> Arrays.copyOf(b, b.length - 10));
            assertDamageNamed(e, pack);
        }
    }

    @Test
    void damagedTombstoneIsNamedByFsck() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "a", 10), TestData.stream(1, 10));
            e.coffer.putObject(PutObjectRequest.of("bkt", "b", 10), TestData.stream(2, 10));
            e.coffer.deleteObject("bkt", "a");
            List<String> tombstones = e.blobs.list(BackendLayout.TOMBSTONES).toList().stream().map(BlobInfo::name).toList();
            assertThat(tombstones).hasSize(1);
            assertThat(e.coffer.fsck(true).damaged()).isEmpty();
            damage(e, tombstones.get(0), b -> flip(b, 5));
            assertThat(e.coffer.fsck(true).damaged()).anySatisfy(d -> assertThat(d).startsWith(tombstones.get(0))
                    .contains("does not open"));
            assertThat(reindex(e).damaged()).anySatisfy(d -> assertThat(d).startsWith(tombstones.get(0)));
        }
    }

    /** A bucket with a chunked object, a small one and an empty one, each manifest in a blob of its own. */
    private TestEngine store() throws IOException {
        TestEngine e = TestEngine.open(dir, b -> b.inlineLimit(0));
        e.coffer.createBucket("bkt", "t", "eu-west-1");
        e.coffer.putObject(PutObjectRequest.of("bkt", "big", 3_000_000), TestData.stream(1, 3_000_000));
        e.coffer.putObject(PutObjectRequest.of("bkt", "small", 100), TestData.stream(2, 100));
        e.coffer.putObject(PutObjectRequest.of("bkt", "empty", 0), TestData.stream(3, 0));
        return e;
    }

    private void assertDamageNamed(TestEngine e, String blob) throws IOException {
        FsckReport f = e.coffer.fsck(true);
        assertThat(f.clean()).isFalse();
        assertThat(f.damaged()).anySatisfy(d -> assertThat(d).contains(blob));
        ReindexReport r = reindex(e);
        assertThat(r.clean()).isFalse();
        assertThat(r.damaged()).anySatisfy(d -> assertThat(d).contains(blob));
    }

    /** Reindexes the backend into a new, empty SQLite file. */
    private ReindexReport reindex(TestEngine e) throws IOException {
        try (Coffer rebuilt = Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("rebuilt-" + rebuilds++ + ".db")))
                .masterKey(e.masterKey).build()) {
            return rebuilt.reindex();
        }
    }

    private static void damage(TestEngine e, String blob, UnaryOperator<byte[]> how) throws IOException {
        byte[] b = e.blobs.read(blob, 0, (int) e.blobs.head(blob).orElseThrow().size());
        e.blobs.put(blob, BlobContent.of(how.apply(b)));
    }

    private static byte[] flip(byte[] b, int at) {
        b[at] ^= 0x01;
        return b;
    }
}

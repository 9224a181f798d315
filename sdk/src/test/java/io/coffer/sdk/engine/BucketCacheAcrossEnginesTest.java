package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines on one metadata store and one backend, as two gateways are: a bucket change made through one is in
 * force on the other as soon as the call that made it returns, although the other keeps bucket records (issue 22).
 * Each test first makes engine {@code a} cache the bucket, then changes it through {@code b}, then uses {@code a}.
 */
class BucketCacheAcrossEnginesTest {
    private static final int SIZE = 1000;

    @TempDir
    Path dir;
    private Coffer a;
    private Coffer b;

    @BeforeEach
    void open() throws IOException {
        MasterKey key = MasterKey.loadOrCreate(dir.resolve("master.key"));
        a = engine(key);
        b = engine(key);
        a.createBucket("bkt", "tenant-1");
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    @Test
    void versioningEnabledThroughOneEngineKeepsTheOldVersionOfAnOverwriteThroughTheOther() throws IOException {
        put(a, "k", 1); // a now holds the bucket's record and its (absent) versioning document
        b.putBucketVersioning(b.headBucket("bkt"), BucketVersioning.ENABLED);
        put(a, "k", 2);

        assertThat(b.listObjectVersions("bkt", "", null, null, null, 100).versions())
                .as("the overwrite through a kept the first content as a noncurrent version")
                .extracting(ObjectVersion::latest).containsExactly(true, false);
        assertThat(read(a, "k")).isEqualTo(TestData.bytes(2, SIZE));
    }

    @Test
    void aBucketDeletedAndMadeAgainByAnotherTenantIsSeenWithItsNewOwner() {
        assertThat(a.headBucket("bkt").owner()).isEqualTo("tenant-1");
        b.deleteBucket("bkt");
        b.createBucket("bkt", "tenant-2");
        assertThat(a.headBucket("bkt").owner()).isEqualTo("tenant-2");
    }

    @Test
    void aBucketDeletedThroughOneEngineRefusesAPutThroughTheOther() {
        assertThat(a.headBucket("bkt").owner()).isEqualTo("tenant-1");
        b.deleteBucket("bkt");
        assertThatThrownBy(() -> put(a, "k", 3)).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
        assertThatThrownBy(() -> a.headBucket("bkt")).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
    }

    @Test
    void aConfigurationDocumentSetThroughOneEngineIsReadThroughTheOther() {
        assertThat(a.bucketConfig(a.headBucket("bkt"), "tagging")).isEmpty();
        b.putBucketConfig(b.headBucket("bkt"), "tagging", new byte[] {7});
        assertThat(a.bucketConfig(a.headBucket("bkt"), "tagging")).hasValueSatisfying(
                doc -> assertThat(doc).containsExactly(7));
    }

    private Coffer engine(MasterKey key) throws IOException {
        return Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))).masterKey(key).build();
    }

    private static void put(Coffer c, String key, long seed) {
        c.putObject(PutObjectRequest.of("bkt", key, SIZE), TestData.stream(seed, SIZE));
    }

    private static byte[] read(Coffer c, String key) throws IOException {
        try (InputStream in = c.getObject("bkt", key).stream()) {
            return in.readAllBytes();
        }
    }
}

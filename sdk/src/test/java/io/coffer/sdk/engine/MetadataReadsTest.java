package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.CountingMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a caller has read, the engine does not read again. */
class MetadataReadsTest {
    /** The bucket cache (BucketCache) serves a record read less than its freshness ago: then no read at all. */
    private static final String FRESH_OR_ONE = "bucket reads: none while the cached record is fresh, else one";
    @TempDir
    Path dir;
    private CountingMetadataStore meta;
    private Coffer coffer;

    @BeforeEach
    void open() {
        meta = new CountingMetadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db")));
        coffer = Coffer.builder().directory(dir).metadataStore(meta.store()).build();
        coffer.createBucket("bkt", "t", null);
        coffer.putObject(PutObjectRequest.of("bkt", "k", 1000), TestData.stream(1, 1000));
    }

    @AfterEach
    void close() {
        coffer.close();
    }

    @Test
    void aPutGivenItsBucketRecordDoesNotReadItAgain() {
        Bucket bucket = coffer.headBucket("bkt");
        meta.reset();
        coffer.putObject(PutObjectRequest.of("bkt", "k2", 10).withBucketRecord(bucket), TestData.stream(2, 10));
        assertThat(meta.calls("bucket")).isZero();
        coffer.putObject(PutObjectRequest.of("bkt", "k3", 10), TestData.stream(3, 10));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
        assertThat(coffer.headObject("bkt", "k2").size()).isEqualTo(10);
    }

    @Test
    void operationsGivenTheBucketRecordDoNotReadItAgain() {
        Bucket bucket = coffer.headBucket("bkt");
        meta.reset();
        String upload = coffer.createMultipartUpload(bucket, "mpu", ObjectAttributes.EMPTY, null);
        PartInfo one = coffer.uploadPart(bucket, "mpu", upload, 1, 10, null, TestData.stream(4, 10));
        PartInfo two = coffer.uploadPartCopy(CopySource.of("bkt", "k"), null, bucket, "mpu", upload, 2);
        PartInfo three = coffer.uploadPartCopy(CopySource.of("bkt", "k"), ByteRange.of(0, 9), bucket, "mpu", upload,
                3);
        assertThat(coffer.listParts(bucket, "mpu", upload, 0, 10).parts()).hasSize(3);
        assertThat(coffer.listMultipartUploads(bucket, "", null, null, null, 10).uploads()).hasSize(1);
        String other = coffer.createMultipartUpload(bucket, "other", ObjectAttributes.EMPTY, null);
        coffer.abortMultipartUpload(bucket, "other", other);
        assertThat(List.of(one.size(), two.size(), three.size())).containsExactly(10L, 1000L, 10L);
        // only the last part may be under the minimum part size
        ObjectInfo done = coffer.completeMultipartUpload(bucket, "mpu", upload,
                List.of(new CompletedPart(3, three.etag())), Precondition.NONE, Map.of());
        coffer.copyObject(CopySource.of("bkt", "mpu"), bucket, "copy", null, Precondition.NONE);
        coffer.deleteObject(bucket, "copy");
        coffer.deleteObjects(bucket, List.of("k", "none"));
        assertThat(meta.calls("bucket")).isZero();
        assertThat(done.size()).isEqualTo(10);
        assertThat(coffer.headObject("bkt", "mpu").etag()).isEqualTo(done.etag());
        assertThat(coffer.listObjects("bkt", "", null, 10).objects()).hasSize(1);
    }

    @Test
    void theNameBasedOperationsReadTheBucketAtMostOnceEach() {
        meta.reset();
        String upload = coffer.createMultipartUpload("bkt", "mpu");
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
        meta.reset();
        coffer.uploadPartCopy(CopySource.of("bkt", "k"), ByteRange.of(0, 9), "bkt", "mpu", upload, 1);
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
        meta.reset();
        coffer.deleteObjects("bkt", List.of("a", "b", "c"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aStaleBucketRecordDoesNotCommitIntoADeletedBucket() {
        coffer.createBucket("gone", "t");
        Bucket stale = coffer.headBucket("gone");
        coffer.deleteBucket("gone");
        assertThatThrownBy(() -> coffer.createMultipartUpload(stale, "k", ObjectAttributes.EMPTY, null))
                .isInstanceOfSatisfying(CofferException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
        assertThatThrownBy(() -> coffer.copyObject(CopySource.of("bkt", "k"), stale, "k", null, Precondition.NONE))
                .isInstanceOfSatisfying(CofferException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
        assertThat(coffer.listMultipartUploads("bkt", "", null, 10).uploads()).isEmpty();
    }

    @Test
    void aCheckedGetReadsTheObjectOnce() throws Exception {
        List<ObjectInfo> checked = new ArrayList<>();
        meta.reset();
        try (ObjectContent c = coffer.getObject("bkt", "k", ByteRange.of(10, 19), checked::add)) {
            assertThat(c.stream().readAllBytes()).hasSize(10);
            assertThat(checked).containsExactly(c.info());
        }
        assertThat(meta.calls("object")).isEqualTo(1);
        meta.reset();
        assertThatThrownBy(() -> coffer.getObject("bkt", "k", null, info -> {
            throw new IllegalStateException("precondition");
        })).hasMessage("precondition");
        assertThat(meta.calls("object")).isEqualTo(1);
    }
}

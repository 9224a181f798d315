package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.T0;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.assertCode;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.newChunks;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.object;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.part;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.PackRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Buckets in the metadata store, mixed into {@link MetadataStoreContractTest} so that they run on every dialect:
 * creation and listing, ownership, configuration at creation, and deletion against objects and uploads.
 */
interface BucketsContract extends StoreContract {
    @Test
    default void bucketsAreCreatedReadAndListedInByteOrder() {
        for (String name : List.of("b-2", "a.b", "a-b", "ab", "a0")) {
            metadata().createBucket(new Bucket(name, "alice", "eu-west-1", T0));
        }
        assertThat(metadata().bucket("a-b")).contains(new Bucket("a-b", "alice", "eu-west-1", T0));
        assertThat(metadata().bucket("nope")).isEmpty();
        assertThat(metadata().buckets()).extracting(Bucket::name).containsExactly("a-b", "a.b", "a0", "ab", "b-2");
    }

    @Test
    default void creatingAnExistingBucketSaysWhoOwnsIt() {
        bucket("b");
        assertCode(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU, () -> bucket("b"));
        assertCode(ErrorCode.BUCKET_ALREADY_EXISTS,
                () -> metadata().createBucket(new Bucket("b", "mallory", "us-east-1", T0)));
        assertThat(metadata().bucket("b")).map(Bucket::owner).contains("alice");
    }

    @Test
    default void aBucketCreatedWithConfigurationHasItFromTheStartAndARefusedCreateWritesNone() {
        byte[] lock = "Enabled".getBytes(StandardCharsets.UTF_8);
        metadata().createBucket(new Bucket("locked", "alice", null, T0), Map.of("object-lock", lock));
        assertThat(metadata().bucketConfigs("locked")).containsOnlyKeys("object-lock");
        assertThat(metadata().bucketConfigs("locked").get("object-lock")).isEqualTo(lock);
        assertCode(ErrorCode.BUCKET_ALREADY_EXISTS, () -> metadata().createBucket(new Bucket("locked", "mallory", null,
                T0), Map.of("cors", lock)));
        assertThat(metadata().bucketConfigs("locked")).containsOnlyKeys("object-lock");
    }

    @Test
    default void deleteBucketRequiresABucketWithoutObjects() {
        assertCode(ErrorCode.NO_SUCH_BUCKET, () -> metadata().deleteBucket("missing"));
        bucket("b");
        metadata().registerPack(new PackRecord("p", 1000, T0), newChunks("p", 1).chunks());
        put("b", "k", "v1", 1);
        assertCode(ErrorCode.BUCKET_NOT_EMPTY, () -> metadata().deleteBucket("b"));
        metadata().deleteObject("b", "k");
        metadata().deleteBucket("b");
        assertThat(metadata().bucket("b")).isEmpty();
        assertThat(metadata().buckets()).isEmpty();
    }

    @Test
    default void deletingABucketAbortsItsUploadsAndReleasesTheirParts() {
        bucket("b");
        bucket("other");
        metadata().createUpload(new UploadRecord("u1", "b", "k", "alice", T0, null));
        metadata().createUpload(new UploadRecord("u2", "b", "k2", "alice", T0, null));
        metadata().createUpload(new UploadRecord("u3", "b", "k3", "alice", T0, null));
        metadata().createUpload(new UploadRecord("o1", "other", "k", "alice", T0, null));
        metadata().commitPart(part("u1", 1, 1, 2), newChunks("p1", 1, 2));
        metadata().commitPart(part("u1", 2, 3), newChunks("p2", 3));
        metadata().commitPart(part("u2", 1, 2, 4), newChunks("p3", 4));
        metadata().commitPart(part("o1", 1, 4), NewChunks.NONE);
        put("b", "k", "v1", 1);

        // an object keeps the bucket, and then nothing changes
        assertCode(ErrorCode.BUCKET_NOT_EMPTY, () -> metadata().deleteBucket("b"));
        assertThat(metadata().upload("u1")).isPresent();
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4))).containsExactly(2L, 2L, 1L, 2L);

        metadata().deleteObject("b", "k");
        metadata().deleteBucket("b");
        assertThat(metadata().bucket("b")).isEmpty();
        for (String upload : List.of("u1", "u2", "u3")) {
            assertThat(metadata().upload(upload)).as(upload).isEmpty();
            assertThat(metadata().parts(upload, 0, 10)).as(upload).isEmpty();
        }
        // released as an abort releases them; chunk 4 is still held by the other bucket's upload
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4))).containsExactly(0L, 0L, 0L, 1L);
        assertThat(metadata().upload("o1")).isPresent();
        assertCode(ErrorCode.NO_SUCH_BUCKET, () -> metadata().deleteBucket("b"));
        assertCode(ErrorCode.NO_SUCH_UPLOAD, () -> metadata().commitPart(part("u1", 3, 4), NewChunks.NONE));
        assertThat(refs(4)).isEqualTo(1);
    }

    @Test
    default void aDeleteBucketRacingACompleteEitherFailsOrAbortsTheUpload() throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(2);
        int deleted = 0;
        try {
            for (int r = 0; r < 20; r++) {
                int round = r;
                String bucket = "race" + round;
                String upload = "u" + round;
                bucket(bucket);
                metadata().createUpload(new UploadRecord(upload, bucket, "k", "alice", T0, null));
                metadata().commitPart(part(upload, 1, round), newChunks("p" + round, round));
                CountDownLatch go = new CountDownLatch(1);
                Future<?> complete = executor.submit(() -> {
                    go.await();
                    return metadata().commitObject(object(bucket, "k", "v" + round, round), NewChunks.NONE,
                            Precondition.NONE, upload);
                });
                Future<?> delete = executor.submit(() -> {
                    go.await();
                    metadata().deleteBucket(bucket);
                    return null;
                });
                go.countDown();
                ErrorCode completeError = errorOf(complete);
                ErrorCode deleteError = errorOf(delete);
                if (deleteError == null) {
                    deleted++;
                    assertThat(completeError).as("round %d", round).isIn(ErrorCode.NO_SUCH_BUCKET,
                            ErrorCode.NO_SUCH_UPLOAD);
                    assertThat(metadata().object(bucket, "k")).as("round %d", round).isEmpty();
                    assertThat(refs(round)).as("round %d", round).isZero();
                } else {
                    assertThat(deleteError).as("round %d", round).isEqualTo(ErrorCode.BUCKET_NOT_EMPTY);
                    assertThat(completeError).as("round %d", round).isNull();
                    assertThat(metadata().object(bucket, "k")).as("round %d", round).isPresent();
                    assertThat(refs(round)).as("round %d", round).isEqualTo(1);
                }
                assertThat(metadata().upload(upload)).as("round %d", round).isEmpty();
            }
        } finally {
            executor.shutdownNow();
        }
        assertThat(metadata().buckets()).hasSize(20 - deleted);
    }

    /** The error code a store call ended with; null if it succeeded. */
    static ErrorCode errorOf(Future<?> call) throws Exception {
        try {
            call.get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CofferException ce) {
                return ce.code();
            }
            throw e;
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Uploads initiated before a cutoff are aborted, a page at a time; younger and completed ones are left alone. */
class MultipartExpiryTest {
    @TempDir
    Path dir;

    @Test
    void anOldUploadIsAbortedAndAYoungOneKept() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            String old = e.coffer.createMultipartUpload("bkt", "old");
            e.coffer.uploadPart("bkt", "old", old, 1, 100_000, TestData.stream(1, 100_000));
            Instant cutoff = afterNow();
            String young = e.coffer.createMultipartUpload("bkt", "young");

            assertThat(e.coffer.expireMultipartUploads(cutoff, 100)).isEqualTo(1);

            assertThatThrownBy(() -> e.coffer.listParts("bkt", "old", old, 0, 10)).isInstanceOfSatisfying(
                    CofferException.class, ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_UPLOAD));
            assertThat(e.coffer.listMultipartUploads("bkt", null, null, 100).uploads())
                    .extracting(UploadRecord::uploadId).containsExactly(young);
            assertThat(e.coffer.expireMultipartUploads(cutoff, 100)).isZero();
        }
    }

    @Test
    void aCompletedUploadIsUntouched() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            String id = e.coffer.createMultipartUpload("bkt", "done");
            PartInfo p = e.coffer.uploadPart("bkt", "done", id, 1, 200_000, TestData.stream(2, 200_000));
            e.coffer.completeMultipartUpload("bkt", "done", id, List.of(new CompletedPart(1, p.etag())));
            Instant cutoff = afterNow();

            assertThat(e.coffer.expireMultipartUploads(cutoff, 100)).isZero();
            // the metadata store's own check: a completed upload is gone, so there is nothing to abort
            assertThat(e.meta.expireUpload(id, cutoff)).isFalse();
            try (ObjectContent c = e.coffer.getObject("bkt", "done")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(2, 200_000));
            }
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void theExpiredUploadsPartsBecomeGarbage() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            e.coffer.createBucket("bkt", "t");
            String id = e.coffer.createMultipartUpload("bkt", "mp");
            e.coffer.uploadPart("bkt", "mp", id, 1, 3_000_000, TestData.stream(3, 3_000_000));
            e.coffer.uploadPart("bkt", "mp", id, 2, 1_000_000, TestData.stream(4, 1_000_000));
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isNotEmpty();

            assertThat(e.coffer.expireMultipartUploads(afterNow(), 100)).isEqualTo(1);
            assertThat(e.collectGarbage().packsRetired()).isPositive();
            e.collectGarbage();
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isEmpty();
            assertThat(e.meta.stats().packBytes()).isZero();
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void eachCallAbortsAtMostItsLimitAndPagesThroughManyUploads() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bka", "t");
            e.coffer.createBucket("bkb", "t");
            for (int i = 0; i < 130; i++) {
                e.coffer.createMultipartUpload(i % 2 == 0 ? "bka" : "bkb", "k" + i);
            }
            Instant cutoff = afterNow();
            String young = e.coffer.createMultipartUpload("bka", "young");

            assertThat(e.coffer.expireMultipartUploads(cutoff, 7)).isEqualTo(7);
            // more than one candidate page (100) in one call
            assertThat(e.coffer.expireMultipartUploads(cutoff, 1000)).isEqualTo(123);
            assertThat(e.coffer.expireMultipartUploads(cutoff, 1000)).isZero();
            assertThat(e.coffer.listMultipartUploads("bkb", null, null, 1000).uploads()).isEmpty();
            assertThat(e.coffer.listMultipartUploads("bka", null, null, 1000).uploads())
                    .extracting(UploadRecord::uploadId).containsExactly(young);
        }
    }

    @Test
    void expiryRacingACompleteNeverLosesTheCompletedObject() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            for (int round = 0; round < 8; round++) {
                String key = "race" + round;
                String id = e.coffer.createMultipartUpload("bkt", key);
                PartInfo p = e.coffer.uploadPart("bkt", key, id, 1, 50_000, TestData.stream(round, 50_000));
                Instant cutoff = afterNow();
                Future<Boolean> completed = pool.submit(() -> {
                    try {
                        e.coffer.completeMultipartUpload("bkt", key, id, List.of(new CompletedPart(1, p.etag())));
                        return true;
                    } catch (CofferException ex) {
                        if (ex.code() != ErrorCode.NO_SUCH_UPLOAD && ex.code() != ErrorCode.INVALID_PART) {
                            throw ex;
                        }
                        return false;
                    }
                });
                Future<Integer> expired = pool.submit(() -> e.coffer.expireMultipartUploads(cutoff, 10));
                boolean won = completed.get();
                int aborted = expired.get();
                // exactly one of them took the upload
                assertThat(won).isNotEqualTo(aborted == 1);
                if (won) {
                    try (ObjectContent c = e.coffer.getObject("bkt", key)) {
                        assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(round, 50_000));
                    }
                }
            }
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    /** A cutoff after everything created so far (initiation times have millisecond resolution). */
    private static Instant afterNow() throws InterruptedException {
        Thread.sleep(3);
        Instant cutoff = Instant.now();
        Thread.sleep(3);
        return cutoff;
    }
}

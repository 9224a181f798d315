package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad request gets its typed error and leaves the backend and the metadata exactly as they were. */
class BadInputTest {
    @TempDir
    Path dir;
    private TestEngine e;

    @BeforeEach
    void open() throws IOException {
        e = TestEngine.open(dir, b -> b.minPartSize(1024));
        e.coffer.createBucket("bkt", "t");
        e.coffer.putObject(PutObjectRequest.of("bkt", "existing", 5000), TestData.stream(1, 5000));
    }

    @AfterEach
    void close() {
        e.close();
    }

    @Test
    void unknownBucketIsNoSuchBucket() throws Exception {
        expectNothingWritten(ErrorCode.NO_SUCH_BUCKET,
                () -> e.coffer.putObject(PutObjectRequest.of("nope", "k", 3), bytes(3)));
        expectNothingWritten(ErrorCode.NO_SUCH_BUCKET, () -> e.coffer.getObject("nope", "k"));
        expectNothingWritten(ErrorCode.NO_SUCH_BUCKET, () -> e.coffer.listObjects("nope", "", null, 10));
        expectNothingWritten(ErrorCode.NO_SUCH_BUCKET, () -> e.coffer.deleteObject("nope", "k"));
    }

    @Test
    void unknownKeyIsNoSuchKey() throws Exception {
        expectNothingWritten(ErrorCode.NO_SUCH_KEY, () -> e.coffer.getObject("bkt", "missing"));
        expectNothingWritten(ErrorCode.NO_SUCH_KEY, () -> e.coffer.headObject("bkt", "missing"));
    }

    @Test
    void invalidBucketNamesAreRefused() throws Exception {
        for (String name : List.of("A", "ab", "Upper", "has_underscore", "-dash", "dot.", "a..b", "192.168.1.1",
                "xn--punycode", "x".repeat(64))) {
            expectNothingWritten(ErrorCode.INVALID_BUCKET_NAME, () -> e.coffer.createBucket(name, "t"));
        }
    }

    @Test
    void namesS3ReservesAreRefusedAsTheGatewayRefusesThem() throws Exception {
        for (String name : List.of("amzn-s3-demo-bucket", "access-point.mrap", "zone--x-s3", "tables--table-s3",
                "sthree-bucket", "alias-s3alias", "lambda--ol-s3")) {
            expectNothingWritten(ErrorCode.INVALID_BUCKET_NAME, () -> e.coffer.createBucket(name, "t", null));
        }
    }

    @Test
    void existingBucketAndNonEmptyBucketAreRefused() throws Exception {
        expectNothingWritten(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU, () -> e.coffer.createBucket("bkt", "t"));
        expectNothingWritten(ErrorCode.BUCKET_ALREADY_EXISTS, () -> e.coffer.createBucket("bkt", "other"));
        expectNothingWritten(ErrorCode.BUCKET_NOT_EMPTY, () -> e.coffer.deleteBucket("bkt"));
    }

    @Test
    void oversizedKeyIsKeyTooLong() throws Exception {
        String key = "k".repeat(1025);
        expectNothingWritten(ErrorCode.KEY_TOO_LONG, () -> e.coffer.putObject(PutObjectRequest.of("bkt", key, 3),
                bytes(3)));
        // 1024 bytes of UTF-8 is fine, 1025 is not, whatever the character count
        e.coffer.putObject(PutObjectRequest.of("bkt", "é".repeat(512), 3), bytes(3));
        expectNothingWritten(ErrorCode.KEY_TOO_LONG, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "é".repeat(512) + "x", 3), bytes(3)));
    }

    @Test
    void badRangesAreInvalidRange() throws Exception {
        expectNothingWritten(ErrorCode.INVALID_RANGE, () -> e.coffer.getObject("bkt", "existing",
                ByteRange.of(5000, 6000)));
        expectNothingWritten(ErrorCode.INVALID_RANGE, () -> e.coffer.getObject("bkt", "existing",
                ByteRange.suffix(0)));
        expectNothingWritten(ErrorCode.INVALID_ARGUMENT, () -> ByteRange.of(10, 5));
    }

    @Test
    void shortAndLongBodiesAreIncompleteBody() throws Exception {
        expectNothingWritten(ErrorCode.INCOMPLETE_BODY, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "short", 10_000_000), TestData.stream(2, 3_000_000)));
        expectNothingWritten(ErrorCode.INCOMPLETE_BODY, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "long", 10), TestData.stream(2, 3_000_000)));
    }

    @Test
    void wrongContentMd5IsBadDigest() throws Exception {
        expectNothingWritten(ErrorCode.BAD_DIGEST, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "k", 2_000_000).withContentMd5(new byte[16]), TestData.stream(3, 2_000_000)));
    }

    @Test
    void failingBodyStreamStoresNothing() throws Exception {
        InputStream failing = new InputStream() {
            private final InputStream data = TestData.stream(4, 20_000_000);
            private long read;

            @Override
            public int read() throws IOException {
                throw new IOException("client went away");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (read > 12_000_000) {
                    throw new IOException("client went away", CofferException.of(ErrorCode.BAD_DIGEST, "checksum"));
                }
                int n = data.read(b, off, len);
                read += Math.max(n, 0);
                return n;
            }
        };
        expectNothingWritten(ErrorCode.BAD_DIGEST, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "k", 20_000_000), failing));
    }

    @Test
    void failedPreconditionsChangeNothing() throws Exception {
        expectNothingWritten(ErrorCode.PRECONDITION_FAILED, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "existing", 3).withPrecondition(new Precondition(null, true)), bytes(3)));
        expectNothingWritten(ErrorCode.PRECONDITION_FAILED, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "existing", 3).withPrecondition(new Precondition("\"0000\"", false)),
                bytes(3)));
        expectNothingWritten(ErrorCode.NO_SUCH_KEY, () -> e.coffer.putObject(
                PutObjectRequest.of("bkt", "absent", 3).withPrecondition(new Precondition("\"0000\"", false)),
                bytes(3)));
    }

    @Test
    void multipartMistakesHaveTheirOwnErrors() throws Exception {
        String id = e.coffer.createMultipartUpload("bkt", "mp");
        String etag1 = e.coffer.uploadPart("bkt", "mp", id, 1, 2000, TestData.stream(5, 2000)).etag();
        String etag2 = e.coffer.uploadPart("bkt", "mp", id, 2, 500, TestData.stream(6, 500)).etag();
        String etag3 = e.coffer.uploadPart("bkt", "mp", id, 3, 2000, TestData.stream(7, 2000)).etag();
        expectNothingWritten(ErrorCode.INVALID_PART_ORDER, () -> e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(2, etag2), new CompletedPart(1, etag1))));
        expectNothingWritten(ErrorCode.INVALID_PART, () -> e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(1, "\"ffff\""))));
        expectNothingWritten(ErrorCode.INVALID_PART, () -> e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(4, etag1))));
        expectNothingWritten(ErrorCode.ENTITY_TOO_SMALL, () -> e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(1, etag1), new CompletedPart(2, etag2), new CompletedPart(3, etag3))));
        expectNothingWritten(ErrorCode.NO_SUCH_UPLOAD, () -> e.coffer.completeMultipartUpload("bkt", "mp", "nope",
                List.of(new CompletedPart(1, etag1))));
        expectNothingWritten(ErrorCode.NO_SUCH_UPLOAD, () -> e.coffer.uploadPart("bkt", "other-key", id, 1, 3,
                bytes(3)));
        expectNothingWritten(ErrorCode.INVALID_ARGUMENT, () -> e.coffer.uploadPart("bkt", "mp", id, 10_001, 3,
                bytes(3)));
        // the upload is intact after all that
        assertThat(e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(1, etag1), new CompletedPart(3, etag3))).etag()).endsWith("-2");
    }

    private void expectNothingWritten(ErrorCode code, ThrowingCallable call) throws Exception {
        List<BlobInfo> before = e.blobs();
        var statsBefore = e.meta.stats();
        assertThatThrownBy(call).isInstanceOfSatisfying(CofferException.class,
                ex -> assertThat(ex.code()).isEqualTo(code));
        assertThat(e.blobs()).extracting(BlobInfo::name).containsExactlyElementsOf(
                before.stream().map(BlobInfo::name).toList());
        assertThat(e.meta.stats()).isEqualTo(statsBefore);
    }

    private static InputStream bytes(int n) {
        return new ByteArrayInputStream(new byte[n]);
    }
}

package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Conditional writes as S3 defines them (If-Match, If-None-Match: *) on PutObject, CopyObject's destination,
 * CompleteMultipartUpload, DeleteObject and DeleteObjects' per-object ETag, through the AWS SDK v2 on the real engine,
 * where the metadata transaction checks them; racing writers: exactly one wins.
 */
class ConditionalWritesTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    static final String BUCKET = "conditional";
    static final int WRITERS = 8;

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void racingIfNoneMatchStarWritersLeaveExactlyOneWinnerAndTheOthersGet412(S3Client s3) throws Exception {
        List<Integer> statuses = race(i -> s3.putObject(r -> r.bucket(BUCKET).key("race-create").ifNoneMatch("*"),
                RequestBody.fromString("writer " + i)));
        assertThat(statuses.stream().filter(s -> s == 200)).hasSize(1);
        assertThat(statuses.stream().filter(s -> s == 412)).hasSize(WRITERS - 1);
        int winner = statuses.indexOf(200);
        assertThat(read(s3, "race-create")).isEqualTo("writer " + winner);
    }

    @Test
    void racingIfMatchWritersOnTheSameEtagLeaveExactlyOneWinner(S3Client s3) throws Exception {
        String etag = s3.putObject(r -> r.bucket(BUCKET).key("race-replace"), RequestBody.fromString("v0")).eTag();
        List<Integer> statuses = race(i -> s3.putObject(r -> r.bucket(BUCKET).key("race-replace").ifMatch(etag),
                RequestBody.fromString("writer " + i)));
        assertThat(statuses.stream().filter(s -> s == 200)).hasSize(1);
        assertThat(statuses.stream().filter(s -> s == 412)).hasSize(WRITERS - 1);
        assertThat(read(s3, "race-replace")).isEqualTo("writer " + statuses.indexOf(200));
    }

    @Test
    void putIfMatchReplacesOnlyTheNamedVersionAndNeedsAnObject(S3Client s3) {
        String v1 = s3.putObject(r -> r.bucket(BUCKET).key("put"), RequestBody.fromString("one")).eTag();
        String v2 = s3.putObject(r -> r.bucket(BUCKET).key("put").ifMatch(v1), RequestBody.fromString("two"))
                .eTag();
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("put").ifMatch(v1),
                RequestBody.fromString("stale")), 412, "PreconditionFailed");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("put").ifNoneMatch("*"),
                RequestBody.fromString("exists")), 412, "PreconditionFailed");
        assertThat(read(s3, "put")).isEqualTo("two");
        s3.putObject(r -> r.bucket(BUCKET).key("put").ifMatch(v2), RequestBody.fromString("three"));
        assertThat(read(s3, "put")).isEqualTo("three");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("put-missing").ifMatch(v1),
                RequestBody.fromString("x")), 404, "NoSuchKey");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("put-missing")), 404, null);
    }

    @Test
    void copyObjectChecksItsDestinationsConditions(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("copy-src"), RequestBody.fromString("source"));
        String dest = s3.putObject(r -> r.bucket(BUCKET).key("copy-dst"), RequestBody.fromString("dest")).eTag();
        assertError(() -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("copy-src")
                .destinationBucket(BUCKET).destinationKey("copy-dst").ifNoneMatch("*")), 412, "PreconditionFailed");
        assertError(() -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("copy-src")
                .destinationBucket(BUCKET).destinationKey("copy-dst").ifMatch("\"0123\"")), 412,
                "PreconditionFailed");
        assertThat(read(s3, "copy-dst")).isEqualTo("dest");
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("copy-src")
                .destinationBucket(BUCKET).destinationKey("copy-dst").ifMatch(dest));
        assertThat(read(s3, "copy-dst")).isEqualTo("source");
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("copy-src")
                .destinationBucket(BUCKET).destinationKey("copy-new").ifNoneMatch("*"));
        assertThat(read(s3, "copy-new")).isEqualTo("source");
    }

    @Test
    void completeMultipartUploadChecksItsConditionsAndARefusedUploadCanStillComplete(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("mpu"), RequestBody.fromString("before"));
        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mpu")).uploadId();
        String e1 = s3.uploadPart(r -> r.bucket(BUCKET).key("mpu").uploadId(upload).partNumber(1),
                RequestBody.fromString("after")).eTag();
        CompletedPart part = CompletedPart.builder().partNumber(1).eTag(e1).build();
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mpu").uploadId(upload)
                .ifNoneMatch("*").multipartUpload(m -> m.parts(part))), 412, "PreconditionFailed");
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mpu").uploadId(upload)
                .ifMatch("\"00\"").multipartUpload(m -> m.parts(part))), 412, "PreconditionFailed");
        assertThat(read(s3, "mpu")).isEqualTo("before");
        String current = s3.headObject(r -> r.bucket(BUCKET).key("mpu")).eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mpu").uploadId(upload).ifMatch(current)
                .multipartUpload(m -> m.parts(part)));
        assertThat(read(s3, "mpu")).isEqualTo("after");

        String fresh = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mpu-new")).uploadId();
        String e2 = s3.uploadPart(r -> r.bucket(BUCKET).key("mpu-new").uploadId(fresh).partNumber(1),
                RequestBody.fromString("new")).eTag();
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mpu-new").uploadId(fresh)
                .ifMatch(current).multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e2)
                        .build()))), 404, "NoSuchKey");
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mpu-new").uploadId(fresh).ifNoneMatch("*")
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e2).build())));
        assertThat(read(s3, "mpu-new")).isEqualTo("new");
    }

    @Test
    void deleteIfMatchDeletesOnlyTheNamedVersion(S3Client s3) {
        String etag = s3.putObject(r -> r.bucket(BUCKET).key("del"), RequestBody.fromString("keep me")).eTag();
        assertError(() -> s3.deleteObject(r -> r.bucket(BUCKET).key("del").ifMatch("\"feed\"")), 412,
                "PreconditionFailed");
        assertThat(read(s3, "del")).isEqualTo("keep me");
        assertThat(s3.deleteObject(r -> r.bucket(BUCKET).key("del").ifMatch(etag)).sdkHttpResponse().statusCode())
                .isEqualTo(204);
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("del")), 404, null);
        assertError(() -> s3.deleteObject(r -> r.bucket(BUCKET).key("del").ifMatch(etag)), 404, "NoSuchKey");
        // without a condition a missing key is still 204
        assertThat(s3.deleteObject(r -> r.bucket(BUCKET).key("del")).sdkHttpResponse().statusCode())
                .isEqualTo(204);
    }

    @Test
    void deleteObjectsHonoursEachObjectsEtag(S3Client s3) {
        String a = s3.putObject(r -> r.bucket(BUCKET).key("multi-a"), RequestBody.fromString("a")).eTag();
        s3.putObject(r -> r.bucket(BUCKET).key("multi-b"), RequestBody.fromString("b"));
        s3.putObject(r -> r.bucket(BUCKET).key("multi-c"), RequestBody.fromString("c"));
        DeleteObjectsResponse resp = s3.deleteObjects(r -> r.bucket(BUCKET).delete(d -> d.objects(
                ObjectIdentifier.builder().key("multi-a").eTag(a).build(),
                ObjectIdentifier.builder().key("multi-b").eTag(a).build(),
                ObjectIdentifier.builder().key("multi-c").build(),
                ObjectIdentifier.builder().key("multi-missing").eTag(a).build())));
        assertThat(resp.deleted()).extracting(d -> d.key()).containsExactlyInAnyOrder("multi-a", "multi-c");
        assertThat(resp.errors()).extracting(e -> e.key() + " " + e.code())
                .containsExactlyInAnyOrder("multi-b PreconditionFailed", "multi-missing NoSuchKey");
        assertThat(read(s3, "multi-b")).isEqualTo("b");
    }

    /** Runs {@link #WRITERS} calls at once (released together); each one's HTTP status, in writer order. */
    private static List<Integer> race(Writer w) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                int id = i;
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        w.write(id);
                        return 200;
                    } catch (S3Exception e) {
                        return e.statusCode();
                    }
                }));
            }
            start.countDown();
            Integer[] out = new Integer[WRITERS];
            for (int i = 0; i < WRITERS; i++) {
                out[i] = results.get(i).get(60, TimeUnit.SECONDS);
            }
            return Arrays.asList(out);
        } finally {
            pool.shutdownNow();
        }
    }

    private static String read(S3Client s3, String key) {
        return s3.getObject(r -> r.bucket(BUCKET).key(key), ResponseTransformer.toBytes()).asUtf8String();
    }

    @FunctionalInterface
    private interface Writer {
        void write(int id);
    }
}

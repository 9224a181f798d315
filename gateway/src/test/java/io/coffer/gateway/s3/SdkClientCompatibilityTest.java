package io.coffer.gateway.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The AWS SDK v2 (sync client, default checksum and signing behaviour) against the gateway over real sockets, on the
 * real engine (directory backend, SQLite metadata).
 */
public class SdkClientCompatibilityTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).packSize(1 << 20).build());

    private static String bucket(S3Client s3, String name) {
        s3.createBucket(b -> b.bucket(name));
        return name;
    }

    @Test
    void putGetHeadDeleteRoundTripKeepsBytesAndMetadata(S3Client s3) {
        String b = bucket(s3, "round-trip");
        PutObjectResponse put = s3.putObject(r -> r.bucket(b).key("dir/hello world+ü.txt").contentType("text/plain")
                        .metadata(Map.of("color", "blue")).cacheControl("max-age=60"),
                RequestBody.fromString("hello coffer"));
        assertThat(put.eTag()).isEqualTo("\"" + md5Hex("hello coffer") + "\"");

        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(b).key("dir/hello world+ü.txt"));
        assertThat(got.asUtf8String()).isEqualTo("hello coffer");
        assertThat(got.response().contentType()).isEqualTo("text/plain");
        assertThat(got.response().metadata()).containsEntry("color", "blue");
        assertThat(got.response().cacheControl()).isEqualTo("max-age=60");

        HeadObjectResponse head = s3.headObject(r -> r.bucket(b).key("dir/hello world+ü.txt"));
        assertThat(head.contentLength()).isEqualTo(12);
        assertThat(head.eTag()).isEqualTo(put.eTag());

        s3.deleteObject(r -> r.bucket(b).key("dir/hello world+ü.txt"));
        assertThatThrownBy(() -> s3.getObject(r -> r.bucket(b).key("dir/hello world+ü.txt")))
                .isInstanceOf(NoSuchKeyException.class);
        s3.deleteObject(r -> r.bucket(b).key("never-existed"));
    }

    @Test
    void rangedGetReturnsPartialContent(S3Client s3) {
        String b = bucket(s3, "ranges");
        s3.putObject(r -> r.bucket(b).key("k"), RequestBody.fromString("0123456789"));
        ResponseBytes<GetObjectResponse> mid = s3.getObjectAsBytes(r -> r.bucket(b).key("k").range("bytes=2-4"));
        assertThat(mid.asUtf8String()).isEqualTo("234");
        assertThat(mid.response().contentRange()).isEqualTo("bytes 2-4/10");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").range("bytes=-3")).asUtf8String()).isEqualTo("789");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").range("bytes=7-")).asUtf8String()).isEqualTo("789");
        assertThatThrownBy(() -> s3.getObject(r -> r.bucket(b).key("k").range("bytes=10-20")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(416);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidRange");
                });
    }

    @Test
    void largeObjectStreamsThroughTheServer(S3Client s3) {
        String b = bucket(s3, "large");
        byte[] data = new byte[12 * 1024 * 1024 + 17];
        new Random(7).nextBytes(data);
        s3.putObject(r -> r.bucket(b).key("big"), RequestBody.fromBytes(data));
        byte[] back = s3.getObjectAsBytes(r -> r.bucket(b).key("big")).asByteArray();
        assertThat(back).isEqualTo(data);
    }

    @Test
    void checksumsAreVerifiedStoredAndReturned(S3Client s3) {
        String b = bucket(s3, "checksums");
        for (ChecksumAlgorithm alg : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C,
                ChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA256)) {
            String key = "obj-" + alg;
            s3.putObject(r -> r.bucket(b).key(key).checksumAlgorithm(alg), RequestBody.fromString("checksummed"));
            HeadObjectResponse head = s3.headObject(r -> r.bucket(b).key(key).checksumMode(ChecksumMode.ENABLED));
            String expected = io.coffer.sdk.checksum.ChecksumAlgorithm.valueOf(alg.toString()
                    .replace("CRC32C", "CRC32C")).of("checksummed".getBytes(StandardCharsets.UTF_8));
            String actual = switch (alg) {
                case CRC32 -> head.checksumCRC32();
                case CRC32_C -> head.checksumCRC32C();
                case SHA1 -> head.checksumSHA1();
                default -> head.checksumSHA256();
            };
            assertThat(actual).as(alg.toString()).isEqualTo(expected);
        }
    }

    @Test
    void listObjectsV2PagesWithDelimiterAndContinuationToken(S3Client s3) {
        String b = bucket(s3, "listing");
        for (int i = 0; i < 7; i++) {
            int n = i;
            s3.putObject(r -> r.bucket(b).key("a/" + n), RequestBody.fromString("x"));
        }
        s3.putObject(r -> r.bucket(b).key("b/1"), RequestBody.fromString("x"));
        s3.putObject(r -> r.bucket(b).key("c"), RequestBody.fromString("x"));

        List<String> keys = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String t = token;
            ListObjectsV2Response page = s3.listObjectsV2(r -> r.bucket(b).prefix("a/").maxKeys(3)
                    .continuationToken(t));
            page.contents().stream().map(S3Object::key).forEach(keys::add);
            token = page.nextContinuationToken();
            pages++;
        } while (token != null);
        assertThat(keys).containsExactly("a/0", "a/1", "a/2", "a/3", "a/4", "a/5", "a/6");
        assertThat(pages).isEqualTo(3);

        ListObjectsV2Response top = s3.listObjectsV2(r -> r.bucket(b).delimiter("/"));
        assertThat(top.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("a/", "b/");
        assertThat(top.contents()).extracting(S3Object::key).containsExactly("c");

        assertThat(s3.listObjectsV2(r -> r.bucket(b).startAfter("a/5")).contents()).extracting(S3Object::key)
                .containsExactly("a/6", "b/1", "c");
        assertThat(s3.listObjects(r -> r.bucket(b).marker("a/6").maxKeys(1)).contents()).extracting(S3Object::key)
                .containsExactly("b/1");
    }

    @Test
    void multipartUploadCompletesWithS3Etag(S3Client s3) {
        String b = bucket(s3, "multipart");
        byte[] part1 = new byte[5 * 1024 * 1024];
        byte[] part2 = "tail".getBytes(StandardCharsets.UTF_8);
        new Random(1).nextBytes(part1);
        CreateMultipartUploadResponse up = s3.createMultipartUpload(r -> r.bucket(b).key("mp").contentType("a/b"));
        UploadPartResponse p1 = s3.uploadPart(r -> r.bucket(b).key("mp").uploadId(up.uploadId()).partNumber(1),
                RequestBody.fromBytes(part1));
        UploadPartResponse p2 = s3.uploadPart(r -> r.bucket(b).key("mp").uploadId(up.uploadId()).partNumber(2),
                RequestBody.fromBytes(part2));
        assertThat(s3.listParts(r -> r.bucket(b).key("mp").uploadId(up.uploadId())).parts()).hasSize(2);
        assertThat(s3.listMultipartUploads(r -> r.bucket(b)).uploads()).hasSize(1);
        s3.completeMultipartUpload(r -> r.bucket(b).key("mp").uploadId(up.uploadId())
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(p1.eTag()).build(),
                        CompletedPart.builder().partNumber(2).eTag(p2.eTag()).build())));
        HeadObjectResponse head = s3.headObject(r -> r.bucket(b).key("mp"));
        assertThat(head.eTag()).endsWith("-2\"");
        assertThat(head.contentLength()).isEqualTo(part1.length + part2.length);
        assertThat(head.contentType()).isEqualTo("a/b");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("mp").partNumber(2)).asUtf8String()).isEqualTo("tail");
    }

    @Test
    void multipartErrorsAreS3Errors(S3Client s3) {
        String b = bucket(s3, "multipart-errors");
        CreateMultipartUploadResponse up = s3.createMultipartUpload(r -> r.bucket(b).key("mp"));
        UploadPartResponse p1 = s3.uploadPart(r -> r.bucket(b).key("mp").uploadId(up.uploadId()).partNumber(1),
                RequestBody.fromString("small"));
        UploadPartResponse p2 = s3.uploadPart(r -> r.bucket(b).key("mp").uploadId(up.uploadId()).partNumber(2),
                RequestBody.fromString("small"));
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(b).key("mp").uploadId(up.uploadId())
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(p1.eTag()).build(),
                        CompletedPart.builder().partNumber(2).eTag(p2.eTag()).build()))), 400, "EntityTooSmall");
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(b).key("mp").uploadId(up.uploadId())
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(2).eTag(p2.eTag()).build(),
                        CompletedPart.builder().partNumber(1).eTag(p1.eTag()).build()))), 400, "InvalidPartOrder");
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(b).key("mp").uploadId(up.uploadId())
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag("\"0000\"").build()))),
                400, "InvalidPart");
        s3.abortMultipartUpload(r -> r.bucket(b).key("mp").uploadId(up.uploadId()));
        assertError(() -> s3.listParts(r -> r.bucket(b).key("mp").uploadId(up.uploadId())), 404, "NoSuchUpload");
    }

    @Test
    void copyObjectCopiesOrReplacesMetadata(S3Client s3) {
        String b = bucket(s3, "copies");
        s3.putObject(r -> r.bucket(b).key("src key").metadata(Map.of("a", "1")), RequestBody.fromString("data"));
        CopyObjectResponse c = s3.copyObject(r -> r.sourceBucket(b).sourceKey("src key").destinationBucket(b)
                .destinationKey("dst"));
        assertThat(c.copyObjectResult().eTag()).isEqualTo("\"" + md5Hex("data") + "\"");
        assertThat(s3.headObject(r -> r.bucket(b).key("dst")).metadata()).containsEntry("a", "1");
        s3.copyObject(r -> r.sourceBucket(b).sourceKey("src key").destinationBucket(b).destinationKey("dst2")
                .metadataDirective(MetadataDirective.REPLACE).metadata(Map.of("b", "2")));
        assertThat(s3.headObject(r -> r.bucket(b).key("dst2")).metadata()).containsOnlyKeys("b");
        assertError(() -> s3.copyObject(r -> r.sourceBucket(b).sourceKey("src key").destinationBucket(b)
                .destinationKey("dst3").copySourceIfMatch("\"nope\"")), 412, "PreconditionFailed");
        assertError(() -> s3.copyObject(r -> r.sourceBucket(b).sourceKey("src key").destinationBucket(b)
                .destinationKey("src key")), 400, "InvalidRequest");
    }

    @Test
    void deleteObjectsReportsEachKey(S3Client s3) {
        String b = bucket(s3, "bulk-delete");
        s3.putObject(r -> r.bucket(b).key("x"), RequestBody.fromString("1"));
        s3.putObject(r -> r.bucket(b).key("y"), RequestBody.fromString("2"));
        DeleteObjectsResponse d = s3.deleteObjects(r -> r.bucket(b).delete(Delete.builder().objects(
                ObjectIdentifier.builder().key("x").build(), ObjectIdentifier.builder().key("y").build(),
                ObjectIdentifier.builder().key("z").build()).build()));
        assertThat(d.deleted()).hasSize(3);
        assertThat(s3.listObjectsV2(r -> r.bucket(b)).contents()).isEmpty();
        DeleteObjectsResponse quiet = s3.deleteObjects(r -> r.bucket(b).delete(Delete.builder().quiet(true)
                .objects(ObjectIdentifier.builder().key("x").build()).build()));
        assertThat(quiet.deleted()).isEmpty();
    }

    @Test
    void conditionalGetsFollowS3Precedence(S3Client s3) {
        String b = bucket(s3, "conditionals");
        String etag = s3.putObject(r -> r.bucket(b).key("k"), RequestBody.fromString("v")).eTag();
        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").ifNoneMatch(etag)), 304, null);
        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").ifMatch("\"other\"")), 412, "PreconditionFailed");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").ifMatch(etag)
                .ifUnmodifiedSince(Instant.parse("2001-01-01T00:00:00Z"))).asUtf8String()).isEqualTo("v");
        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").ifModifiedSince(Instant.now().plusSeconds(3600))),
                304, null);
        assertError(() -> s3.putObject(r -> r.bucket(b).key("k").ifNoneMatch("*"), RequestBody.fromString("w")),
                412, "PreconditionFailed");
    }

    @Test
    void bucketLifecycleAndListBuckets(S3Client s3) {
        bucket(s3, "lifecycle-bucket");
        assertThat(s3.listBuckets().buckets()).extracting(x -> x.name()).contains("lifecycle-bucket");
        s3.headBucket(r -> r.bucket("lifecycle-bucket"));
        assertThat(s3.getBucketLocation(r -> r.bucket("lifecycle-bucket")).locationConstraintAsString()).isEmpty();
        // us-east-1: re-creating one's own bucket is 200 (CreateBucketTest has the other regions)
        assertThat(s3.createBucket(r -> r.bucket("lifecycle-bucket")).sdkHttpResponse().statusCode()).isEqualTo(200);
        s3.putObject(r -> r.bucket("lifecycle-bucket").key("k"), RequestBody.fromString("v"));
        assertError(() -> s3.deleteBucket(r -> r.bucket("lifecycle-bucket")), 409, "BucketNotEmpty");
        s3.deleteObject(r -> r.bucket("lifecycle-bucket").key("k"));
        s3.deleteBucket(r -> r.bucket("lifecycle-bucket"));
        assertError(() -> s3.headBucket(r -> r.bucket("lifecycle-bucket")), 404, null);
    }

    @Test
    void listBucketsFiltersByPrefixAndRegionAndPages(S3Client s3) {
        for (String name : List.of("lb-a", "lb-b", "lb-c", "lb-d", "lb-e")) {
            s3.createBucket(b -> b.bucket(name));
        }
        s3.createBucket(b -> b.bucket("lb-west").createBucketConfiguration(c -> c.locationConstraint("eu-west-1")));
        List<String> paged = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String t = token;
            var page = s3.listBuckets(r -> r.prefix("lb-").maxBuckets(4).continuationToken(t));
            page.buckets().forEach(b -> paged.add(b.name()));
            assertThat(page.prefix()).isEqualTo("lb-");
            token = page.continuationToken();
            pages++;
        } while (token != null && pages < 10);
        assertThat(pages).isEqualTo(2);
        assertThat(paged).containsExactly("lb-a", "lb-b", "lb-c", "lb-d", "lb-e", "lb-west");
        assertThat(s3.listBuckets(r -> r.prefix("lb-").bucketRegion("eu-west-1")).buckets())
                .extracting(Bucket::name).containsExactly("lb-west");
        assertThat(s3.listBuckets(r -> r.prefix("no-such-prefix")).buckets()).isEmpty();
        assertError(() -> s3.listBuckets(r -> r.maxBuckets(0)), 400, "InvalidArgument");
    }

    public static void assertError(Runnable call, int status, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            if (code != null) {
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
            }
        });
    }

    static String md5Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

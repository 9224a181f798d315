package io.coffer.gateway.s3.sse;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CustomerKey;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * SSE-C through the AWS SDK v2 on the real engine: PutObject, GetObject (whole, range, part), HeadObject,
 * GetObjectAttributes and CopyObject with customer keys, S3's errors for a missing, wrong or malformed key (which
 * store nothing), multipart uploads under a key, UploadPartCopy from and into them.
 */
class CustomerKeyRequestsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withSseCustomerOverHttp(true);

    static final String BUCKET = "ssec";
    static final byte[] KEY_A = key(7);
    static final byte[] KEY_B = key(9);

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void objectPutWithAKeyIsReadWithItAndTheResponsesEchoItsMd5(S3Client s3) {
        byte[] data = bytes(300_000);
        PutObjectResponse put = s3.putObject(withKey(PutObjectRequest.builder().bucket(BUCKET).key("a"), KEY_A)
                .build(), RequestBody.fromBytes(data));
        assertThat(put.sseCustomerAlgorithm()).isEqualTo("AES256");
        assertThat(put.sseCustomerKeyMD5()).isEqualTo(md5(KEY_A));
        assertThat(put.serverSideEncryptionAsString()).isNull();

        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)));
        assertThat(got.asByteArray()).isEqualTo(data);
        assertThat(got.response().sseCustomerKeyMD5()).isEqualTo(md5(KEY_A));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a").range("bytes=1000-1999")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)))
                .asByteArray()).isEqualTo(Arrays.copyOfRange(data, 1000, 2000));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a").partNumber(1)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)))
                .asByteArray()).isEqualTo(data);
        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("a")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)));
        assertThat(head.contentLength()).isEqualTo(data.length);
        assertThat(head.sseCustomerAlgorithm()).isEqualTo("AES256");
        // the stored digest is never a header
        assertThat(head.sdkHttpResponse().headers().keySet()).noneMatch(h -> h.toLowerCase().contains("coffer"));
    }

    @Test
    void missingKeyIs400AndAnotherKeyIs403(S3Client s3) {
        s3.putObject(withKey(PutObjectRequest.builder().bucket(BUCKET).key("b"), KEY_A).build(),
                RequestBody.fromString("secret"));
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("b")), 400, "InvalidRequest");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("b")), 400, null);
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("b").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B))), 403, "AccessDenied");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("b").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B))), 403, null);
        assertError(() -> s3.getObjectAttributes(r -> r.bucket(BUCKET).key("b")
                .objectAttributes(ObjectAttributes.OBJECT_SIZE)), 400, "InvalidRequest");
        assertThat(s3.getObjectAttributes(r -> r.bucket(BUCKET).key("b").objectAttributes(ObjectAttributes.OBJECT_SIZE)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)))
                .objectSize()).isEqualTo(6L);
        // a key for an object stored under none
        s3.putObject(r -> r.bucket(BUCKET).key("plain"), RequestBody.fromString("plain"));
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("plain").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A))), 400, "InvalidRequest");
    }

    @Test
    void malformedKeyHeadersAre400AndStoreNothing(S3Client s3) {
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        hostile(s3, "k1", h -> h.sseCustomerAlgorithm("AES256").sseCustomerKey("not base64!!")
                .sseCustomerKeyMD5(md5(KEY_A)));
        hostile(s3, "k2", h -> h.sseCustomerAlgorithm("AES256").sseCustomerKey(shortKey)
                .sseCustomerKeyMD5(md5(new byte[16])));
        hostile(s3, "k3", h -> h.sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A))
                .sseCustomerKeyMD5(md5(KEY_B)));
        hostile(s3, "k4", h -> h.sseCustomerAlgorithm("AES128").sseCustomerKey(b64(KEY_A))
                .sseCustomerKeyMD5(md5(KEY_A)));
        hostile(s3, "k5", h -> h.sseCustomerAlgorithm("AES256"));
        hostile(s3, "k6", h -> h.sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)));
        hostile(s3, "k7", h -> h.sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A))
                .sseCustomerKeyMD5(md5(KEY_A)).serverSideEncryption("AES256"));
    }

    @Test
    void copyReencryptsUnderTheDestinationKeyOrNone(S3Client s3) {
        byte[] data = bytes(200_000);
        s3.putObject(withKey(PutObjectRequest.builder().bucket(BUCKET).key("src"), KEY_A).build(),
                RequestBody.fromBytes(data));
        assertError(() -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("src").destinationBucket(BUCKET)
                .destinationKey("nokey")), 400, "InvalidRequest");
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("src").destinationBucket(BUCKET).destinationKey("rekeyed")
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(b64(KEY_A))
                .copySourceSSECustomerKeyMD5(md5(KEY_A))
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B)));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("rekeyed").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B))).asByteArray()).isEqualTo(data);
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("rekeyed").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A))), 403, "AccessDenied");
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("src").destinationBucket(BUCKET).destinationKey("opened")
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(b64(KEY_A))
                .copySourceSSECustomerKeyMD5(md5(KEY_A)));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("opened")).asByteArray()).isEqualTo(data);
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("opened").destinationBucket(BUCKET).destinationKey("sealed")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("sealed").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A))).asByteArray()).isEqualTo(data);
    }

    @Test
    void multipartUploadTakesItsKeyOnEveryPartAndReadsBackWithIt(S3Client s3) {
        byte[] one = bytes(5 << 20);
        byte[] two = bytes(100_000);
        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mp").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A))).uploadId();
        String etag1 = s3.uploadPart(r -> r.bucket(BUCKET).key("mp").uploadId(upload).partNumber(1)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)),
                RequestBody.fromBytes(one)).eTag();
        assertError(() -> s3.uploadPart(r -> r.bucket(BUCKET).key("mp").uploadId(upload).partNumber(2)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B)),
                RequestBody.fromBytes(two)), 400, "InvalidRequest");
        assertError(() -> s3.uploadPart(r -> r.bucket(BUCKET).key("mp").uploadId(upload).partNumber(2),
                RequestBody.fromBytes(two)), 400, "InvalidRequest");
        String etag2 = s3.uploadPart(r -> r.bucket(BUCKET).key("mp").uploadId(upload).partNumber(2)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A)),
                RequestBody.fromBytes(two)).eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mp").uploadId(upload).multipartUpload(m -> m.parts(
                p -> p.partNumber(1).eTag(etag1), p -> p.partNumber(2).eTag(etag2))));
        byte[] got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_A)).sseCustomerKeyMD5(md5(KEY_A))).asByteArray();
        assertThat(got).hasSize(one.length + two.length);
        assertThat(Arrays.copyOfRange(got, one.length, got.length)).isEqualTo(two);
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp")), 400, "InvalidRequest");
    }

    @Test
    void uploadPartCopyReadsTheSourceWithItsKeyAndWritesThePartUnderTheUploads(S3Client s3) {
        byte[] data = bytes(150_000);
        s3.putObject(withKey(PutObjectRequest.builder().bucket(BUCKET).key("part-src"), KEY_A).build(),
                RequestBody.fromBytes(data));
        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("from-copy").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B))).uploadId();
        // without the source's key, or without the upload's, the part is refused
        assertError(() -> s3.uploadPartCopy(r -> r.sourceBucket(BUCKET).sourceKey("part-src").destinationBucket(BUCKET)
                .destinationKey("from-copy").uploadId(upload).partNumber(1).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B))), 400, "InvalidRequest");
        assertError(() -> s3.uploadPartCopy(r -> r.sourceBucket(BUCKET).sourceKey("part-src").destinationBucket(BUCKET)
                .destinationKey("from-copy").uploadId(upload).partNumber(1).copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(b64(KEY_A)).copySourceSSECustomerKeyMD5(md5(KEY_A))), 400,
                "InvalidRequest");
        String etag = s3.uploadPartCopy(r -> r.sourceBucket(BUCKET).sourceKey("part-src").destinationBucket(BUCKET)
                .destinationKey("from-copy").uploadId(upload).partNumber(1).copySourceRange("bytes=100-99999")
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(b64(KEY_A))
                .copySourceSSECustomerKeyMD5(md5(KEY_A)).sseCustomerAlgorithm("AES256").sseCustomerKey(b64(KEY_B))
                .sseCustomerKeyMD5(md5(KEY_B))).copyPartResult().eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("from-copy").uploadId(upload).multipartUpload(m -> m.parts(
                p -> p.partNumber(1).eTag(etag))));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("from-copy").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(KEY_B)).sseCustomerKeyMD5(md5(KEY_B))).asByteArray())
                .isEqualTo(Arrays.copyOfRange(data, 100, 100_000));
    }

    private static void hostile(S3Client s3, String key, Consumer<PutObjectRequest.Builder> headers) {
        PutObjectRequest.Builder b = PutObjectRequest.builder().bucket(BUCKET).key(key);
        headers.accept(b);
        assertError(() -> s3.putObject(b.build(), RequestBody.fromString("x")), 400, null);
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key(key)), 404, null);
    }

    private static PutObjectRequest.Builder withKey(PutObjectRequest.Builder b, byte[] key) {
        return b.sseCustomerAlgorithm("AES256").sseCustomerKey(b64(key)).sseCustomerKeyMD5(md5(key));
    }

    static byte[] key(int seed) {
        byte[] k = new byte[CustomerKey.LENGTH];
        Arrays.fill(k, (byte) seed);
        return k;
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    static String md5(byte[] b) {
        try {
            return b64(MessageDigest.getInstance("MD5").digest(b));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + i / 7);
        }
        return b;
    }
}

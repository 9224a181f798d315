package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAttributesResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.ObjectPart;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The checksum of a multipart object through the AWS SDK v2 with its default checksum settings: CompleteMultipartUpload
 * makes it from the parts' (composite {@code <base64>-N}, or a full-object CRC), checks the client's claims (BadDigest
 * for the object's, InvalidPart for a part's) and answers it; HeadObject and GetObject with checksum mode, GetObject of
 * a part and GetObjectAttributes (with paged parts) answer it as S3 does.
 */
class MultipartObjectChecksumTest {
    private static final int PART = 64 * 1024;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).minPartSize(PART).build());

    static final String BUCKET = "mpu-object-checksums";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    private static byte[][] parts(int seed, int... sizes) {
        Random random = new Random(seed);
        byte[][] out = new byte[sizes.length][];
        for (int i = 0; i < sizes.length; i++) {
            out[i] = new byte[sizes[i]];
            random.nextBytes(out[i]);
        }
        return out;
    }

    private static String sha256(byte[] b) throws Exception {
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static List<CompletedPart> upload(S3Client s3, String key, String id, ChecksumAlgorithm alg,
                                              byte[][] parts) {
        List<CompletedPart> done = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            int n = i + 1;
            UploadPartResponse up = s3.uploadPart(r -> r.bucket(BUCKET).key(key).uploadId(id).partNumber(n)
                    .checksumAlgorithm(alg), RequestBody.fromBytes(parts[i]));
            done.add(CompletedPart.builder().partNumber(n).eTag(up.eTag()).checksumSHA256(up.checksumSHA256())
                    .checksumCRC32(up.checksumCRC32()).build());
        }
        return done;
    }

    @Test
    void compositeSha256IsMadeCheckedAndAnswered(S3Client s3) throws Exception {
        String key = "composite";
        byte[][] parts = parts(1, PART, PART, 1000);
        MessageDigest ofParts = MessageDigest.getInstance("SHA-256");
        for (byte[] p : parts) {
            ofParts.update(MessageDigest.getInstance("SHA-256").digest(p));
        }
        String composite = Base64.getEncoder().encodeToString(ofParts.digest()) + "-3";
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)
                .checksumAlgorithm(ChecksumAlgorithm.SHA256)).uploadId();
        List<CompletedPart> done = upload(s3, key, id, ChecksumAlgorithm.SHA256, parts);

        String wrongObject = sha256(parts[0]);
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(id)
                .checksumSHA256(wrongObject).multipartUpload(m -> m.parts(done))), 400, "BadDigest");
        List<CompletedPart> wrongPart = new ArrayList<>(done);
        wrongPart.set(1, done.get(1).toBuilder().checksumSHA256(done.get(0).checksumSHA256()).build());
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(id)
                .multipartUpload(m -> m.parts(wrongPart))), 400, "InvalidPart");

        CompleteMultipartUploadResponse complete = s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key)
                .uploadId(id).checksumSHA256(composite).multipartUpload(m -> m.parts(done)));
        assertThat(complete.checksumSHA256()).isEqualTo(composite);
        assertThat(complete.checksumType()).isEqualTo(ChecksumType.COMPOSITE);

        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key(key).checksumMode(ChecksumMode.ENABLED));
        assertThat(head.checksumSHA256()).isEqualTo(composite);
        assertThat(head.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key(key)).checksumSHA256()).isNull();

        ResponseBytes<GetObjectResponse> two = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key).partNumber(2)
                .checksumMode(ChecksumMode.ENABLED));
        assertThat(two.asByteArray()).isEqualTo(parts[1]);
        assertThat(two.response().checksumSHA256()).isEqualTo(sha256(parts[1]));
        assertThat(two.response().checksumType()).isEqualTo(ChecksumType.COMPOSITE);

        GetObjectAttributesResponse attrs = s3.getObjectAttributes(r -> r.bucket(BUCKET).key(key)
                .objectAttributes(ObjectAttributes.CHECKSUM, ObjectAttributes.OBJECT_PARTS).maxParts(1)
                .partNumberMarker(1));
        assertThat(attrs.checksum().checksumSHA256()).isEqualTo(composite);
        assertThat(attrs.checksum().checksumType()).isEqualTo(ChecksumType.COMPOSITE);
        assertThat(attrs.objectParts().totalPartsCount()).isEqualTo(3);
        assertThat(attrs.objectParts().isTruncated()).isTrue();
        assertThat(attrs.objectParts().nextPartNumberMarker()).isEqualTo(2);
        assertThat(attrs.objectParts().parts()).extracting(ObjectPart::partNumber, ObjectPart::size,
                ObjectPart::checksumSHA256).containsExactly(Tuple.tuple(2, (long) PART,
                sha256(parts[1])));
    }

    @Test
    void fullObjectCrc32IsTheCrcOfAllTheBytes(S3Client s3) {
        String key = "full";
        byte[][] parts = parts(2, PART, 777);
        CRC32 all = new CRC32();
        for (byte[] p : parts) {
            all.update(p);
        }
        byte[] crc = ByteBuffer.allocate(4).putInt((int) all.getValue()).array();
        String full = Base64.getEncoder().encodeToString(crc);
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32).checksumType(ChecksumType.FULL_OBJECT)).uploadId();
        List<CompletedPart> done = upload(s3, key, id, ChecksumAlgorithm.CRC32, parts);
        CompleteMultipartUploadResponse complete = s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key)
                .uploadId(id).checksumCRC32(full).multipartUpload(m -> m.parts(done)));
        assertThat(complete.checksumCRC32()).isEqualTo(full);
        assertThat(complete.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
        // the SDK checks a whole-object CRC it is given against the bytes it reads
        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)
                .checksumMode(ChecksumMode.ENABLED));
        assertThat(got.response().checksumCRC32()).isEqualTo(full);
        assertThat(got.response().checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    }

    @Test
    void partsAreListedWithoutChecksumsWhenTheUploadHadNone(S3Client s3) {
        String key = "plain";
        byte[][] parts = parts(3, PART, PART, 10);
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)).uploadId();
        List<CompletedPart> done = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            int n = i + 1;
            String etag = s3.uploadPart(r -> r.bucket(BUCKET).key(key).uploadId(id).partNumber(n),
                    RequestBody.fromBytes(parts[n - 1])).eTag();
            done.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
        }
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(id).multipartUpload(m -> m.parts(done)));
        GetObjectAttributesResponse attrs = s3.getObjectAttributes(r -> r.bucket(BUCKET).key(key)
                .objectAttributes(ObjectAttributes.OBJECT_PARTS));
        assertThat(attrs.objectParts().totalPartsCount()).isEqualTo(3);
        assertThat(attrs.objectParts().isTruncated()).isFalse();
        assertThat(attrs.objectParts().parts()).extracting(ObjectPart::partNumber, ObjectPart::size)
                .containsExactly(Tuple.tuple(1, (long) PART),
                        Tuple.tuple(2, (long) PART),
                        Tuple.tuple(3, 10L));
        assertThat(attrs.objectParts().parts()).allSatisfy(p -> assertThat(p.checksumSHA256()).isNull());
    }
}

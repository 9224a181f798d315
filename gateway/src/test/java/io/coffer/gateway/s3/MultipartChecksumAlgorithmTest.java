package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * CreateMultipartUpload with a checksum algorithm (and type) through the AWS SDK v2 on the real engine: S3 answers
 * both back (clients such as boto3 read them), with its default type when none is sent, and refuses what it does
 * not offer; UploadPart answers each part's verified checksum.
 */
class MultipartChecksumAlgorithmTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    static final String BUCKET = "mpu-checksums";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void algorithmIsAnsweredWithItsDefaultType(S3Client s3) {
        CreateMultipartUploadResponse sha = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("sha")
                .checksumAlgorithm(ChecksumAlgorithm.SHA256));
        assertThat(sha.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.SHA256);
        assertThat(sha.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
        CreateMultipartUploadResponse crc64 = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("crc64")
                .checksumAlgorithm(ChecksumAlgorithm.CRC64_NVME));
        assertThat(crc64.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC64_NVME);
        assertThat(crc64.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    }

    @Test
    void typeSentIsAnswered(S3Client s3) {
        CreateMultipartUploadResponse full = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("crc32-full")
                .checksumAlgorithm(ChecksumAlgorithm.CRC32).checksumType(ChecksumType.FULL_OBJECT));
        assertThat(full.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC32);
        assertThat(full.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
        CreateMultipartUploadResponse composite = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("c32c")
                .checksumAlgorithm(ChecksumAlgorithm.CRC32_C).checksumType(ChecksumType.COMPOSITE));
        assertThat(composite.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC32_C);
        assertThat(composite.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
    }

    @Test
    void withoutAlgorithmNeitherIsAnswered(S3Client s3) {
        CreateMultipartUploadResponse plain = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("plain"));
        assertThat(plain.checksumAlgorithm()).isNull();
        assertThat(plain.checksumType()).isNull();
    }

    @Test
    void combinationsS3DoesNotOfferAreInvalidRequest(S3Client s3) {
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("bad")
                .checksumAlgorithm(ChecksumAlgorithm.SHA256).checksumType(ChecksumType.FULL_OBJECT)),
                400, "InvalidRequest");
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("bad")
                .checksumAlgorithm(ChecksumAlgorithm.CRC64_NVME).checksumType(ChecksumType.COMPOSITE)),
                400, "InvalidRequest");
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("bad")
                .checksumType(ChecksumType.COMPOSITE)), 400, "InvalidRequest");
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("bad")
                .overrideConfiguration(o -> o.putHeader("x-amz-checksum-algorithm", "MD5"))), 400, "InvalidRequest");
        assertThat(s3.listMultipartUploads(r -> r.bucket(BUCKET).prefix("bad")).uploads()).isEmpty();
    }

    @Test
    void uploadPartAnswersThePartChecksum(S3Client s3) throws Exception {
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("parts")
                .checksumAlgorithm(ChecksumAlgorithm.SHA256)).uploadId();
        byte[] part = "part one".getBytes(StandardCharsets.UTF_8);
        String sha256 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(part));
        UploadPartResponse up = s3.uploadPart(r -> r.bucket(BUCKET).key("parts").uploadId(id).partNumber(1)
                .checksumAlgorithm(ChecksumAlgorithm.SHA256), RequestBody.fromBytes(part));
        assertThat(up.checksumSHA256()).isEqualTo(sha256);
    }
}

package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAttributesResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.StorageClass;

/** GetObjectAttributes through the AWS SDK v2 on the real engine (object tags: ObjectTaggingTest). */
class ObjectAttributesTest {
    static final Credential OTHER = new Credential("ATTRSOTHERKEY", "attrs-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    static final String BUCKET = "attributes";
    static final List<ObjectAttributes> ALL = List.of(ObjectAttributes.E_TAG, ObjectAttributes.CHECKSUM,
            ObjectAttributes.OBJECT_PARTS, ObjectAttributes.STORAGE_CLASS, ObjectAttributes.OBJECT_SIZE);

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void theAttributesOfAVersionNameTheVersionRead(S3Client s3) {
        s3.createBucket(b -> b.bucket("attributes-versioned"));
        s3.putBucketVersioning(r -> r.bucket("attributes-versioned")
                .versioningConfiguration(v -> v.status("Enabled")));
        String first = s3.putObject(r -> r.bucket("attributes-versioned").key("k"),
                RequestBody.fromString("first")).versionId();
        String second = s3.putObject(r -> r.bucket("attributes-versioned").key("k"),
                RequestBody.fromString("second!")).versionId();
        GetObjectAttributesResponse old = s3.getObjectAttributes(r -> r.bucket("attributes-versioned").key("k")
                .versionId(first).objectAttributes(ObjectAttributes.OBJECT_SIZE));
        assertThat(old.versionId()).isEqualTo(first);
        assertThat(old.objectSize()).isEqualTo(5L);
        GetObjectAttributesResponse current = s3.getObjectAttributes(r -> r.bucket("attributes-versioned").key("k")
                .objectAttributes(ObjectAttributes.OBJECT_SIZE));
        assertThat(current.versionId()).isEqualTo(second);
        // an object of a bucket never versioned has no version id to name (S3 answers none)
        s3.putObject(r -> r.bucket(BUCKET).key("unversioned"), RequestBody.fromString("x"));
        assertThat(s3.getObjectAttributes(r -> r.bucket(BUCKET).key("unversioned")
                .objectAttributes(ObjectAttributes.OBJECT_SIZE)).versionId()).isNull();
    }

    @Test
    void aSinglePutObjectsAttributesAreItsEtagSizeChecksumAndStandardClass(S3Client s3) {
        byte[] data = "attributes of one object".getBytes(StandardCharsets.UTF_8);
        PutObjectResponse put = s3.putObject(r -> r.bucket(BUCKET).key("single")
                .checksumAlgorithm(ChecksumAlgorithm.SHA256), RequestBody.fromBytes(data));
        GetObjectAttributesResponse a = s3.getObjectAttributes(r -> r.bucket(BUCKET).key("single")
                .objectAttributes(ALL));
        assertThat('"' + a.eTag() + '"').isEqualTo(put.eTag());
        assertThat(a.objectSize()).isEqualTo(data.length);
        assertThat(a.storageClass()).isEqualTo(StorageClass.STANDARD);
        assertThat(a.checksum().checksumSHA256()).isEqualTo(put.checksumSHA256());
        assertThat(a.checksum().checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
        assertThat(a.objectParts()).isNull();
        assertThat(a.lastModified()).isEqualTo(s3.headObject(r -> r.bucket(BUCKET).key("single")).lastModified());

        GetObjectAttributesResponse some = s3.getObjectAttributes(r -> r.bucket(BUCKET).key("single")
                .objectAttributes(ObjectAttributes.OBJECT_SIZE));
        assertThat(some.objectSize()).isEqualTo(data.length);
        assertThat(some.eTag()).isNull();
        assertThat(some.checksum()).isNull();
        assertThat(some.storageClass()).isNull();
    }

    @Test
    void aMultipartObjectReportsItsPartCount(S3Client s3) {
        byte[] part = new byte[5 << 20];
        Arrays.fill(part, (byte) 'p');
        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("multi")).uploadId();
        String e1 = s3.uploadPart(r -> r.bucket(BUCKET).key("multi").uploadId(upload).partNumber(1),
                RequestBody.fromBytes(part)).eTag();
        String e2 = s3.uploadPart(r -> r.bucket(BUCKET).key("multi").uploadId(upload).partNumber(2),
                RequestBody.fromString("tail")).eTag();
        String etag = s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("multi").uploadId(upload)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build(),
                        CompletedPart.builder().partNumber(2).eTag(e2).build()))).eTag();
        GetObjectAttributesResponse a = s3.getObjectAttributes(r -> r.bucket(BUCKET).key("multi")
                .objectAttributes(ALL));
        assertThat(a.objectParts().totalPartsCount()).isEqualTo(2);
        assertThat('"' + a.eTag() + '"').isEqualTo(etag).endsWith("-2\"");
        assertThat(a.objectSize()).isEqualTo(part.length + 4L);
    }

    @Test
    void attributesOfMissingOrForeignObjectsAndBadAttributeNamesAreS3Errors(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("mine"), RequestBody.fromString("x"));
        assertError(() -> s3.getObjectAttributes(r -> r.bucket(BUCKET).key("missing").objectAttributes(ALL)), 404,
                "NoSuchKey");
        assertError(() -> s3.getObjectAttributes(r -> r.bucket(BUCKET).key("mine")
                .objectAttributesWithStrings("Owner")), 400, "InvalidArgument");
        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.getObjectAttributes(r -> r.bucket(BUCKET).key("mine").objectAttributes(ALL)),
                    403, "AccessDenied");
        }
    }
}

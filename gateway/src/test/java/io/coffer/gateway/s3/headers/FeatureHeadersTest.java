package io.coffer.gateway.s3.headers;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.StorageClass;
import software.amazon.awssdk.services.s3.model.TaggingDirective;

/**
 * Headers that ask for S3 features (ACLs, object lock, KMS and customer-key encryption, storage classes,
 * website redirects, expected bucket owners) through the AWS SDK v2 on the real engine: what Coffer cannot honour (or
 * Block Public Access refuses) is refused with S3's error and stores nothing; what it does anyway passes.
 */
class FeatureHeadersTest {
    static final Credential OTHER = new Credential("FEATURESOTHERKEY", "features-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    static final String BUCKET = "features";
    static String owner;

    @BeforeAll
    static void bucket() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        s3.putObject(r -> r.bucket(BUCKET).key("source"), RequestBody.fromString("source bytes"));
        owner = s3.listBuckets().owner().id();
    }

    @Test
    void putsAskingForFeaturesCofferLacksAreRefusedAndStoreNothing(S3Client s3) {
        List<Refused> refused = List.of(
                // Block Public Access is on for every tenant by default (PublicAccessTest: where it is off)
                new Refused(r -> r.acl(ObjectCannedACL.PUBLIC_READ), 403, "AccessDenied"),
                new Refused(r -> r.grantRead("id=someone"), 501, "NotImplemented"),
                // this gateway has no KMS keyring (KmsRequestsTest: one that has)
                new Refused(r -> r.serverSideEncryption(ServerSideEncryption.AWS_KMS), 501, "NotImplemented"),
                new Refused(r -> r.serverSideEncryption(ServerSideEncryption.AWS_KMS_DSSE), 501, "NotImplemented"),
                // a KMS key id without aws:kms is S3's InvalidArgument, keyring or not
                new Refused(r -> r.serverSideEncryption(ServerSideEncryption.AES256).ssekmsKeyId("key-1"), 400,
                        "InvalidArgument"),
                new Refused(r -> r.storageClass(StorageClass.GLACIER), 501, "NotImplemented"),
                new Refused(r -> r.websiteRedirectLocation("/elsewhere"), 501, "NotImplemented"),
                new Refused(r -> r.objectLockMode(ObjectLockMode.COMPLIANCE)
                        .objectLockRetainUntilDate(Instant.now().plusSeconds(86_400)), 400, "InvalidRequest"),
                new Refused(r -> r.objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON), 400, "InvalidRequest"));
        for (Refused c : refused) {
            assertError(() -> s3.putObject(r -> c.headers().accept(r.bucket(BUCKET).key("refused")),
                    RequestBody.fromString("must not be stored")), c.status(), c.code());
        }
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("refused")
                .storageClass(StorageClass.STANDARD_IA)), 501, "NotImplemented");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("refused")), 404, null);
        assertThat(s3.listMultipartUploads(r -> r.bucket(BUCKET)).uploads()).isEmpty();
    }

    @Test
    void whatCofferDoesAnywayPasses(S3Client s3) {
        var put = s3.putObject(r -> r.bucket(BUCKET).key("plain").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL)
                        .serverSideEncryption(ServerSideEncryption.AES256).storageClass(StorageClass.STANDARD)
                        .tagging("").expectedBucketOwner(owner),
                RequestBody.fromString("plain bytes"));
        assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        var got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("plain"));
        assertThat(got.asUtf8String()).isEqualTo("plain bytes");
        assertThat(got.response().serverSideEncryption()).as("every object is encrypted at rest")
                .isEqualTo(ServerSideEncryption.AES256);
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("plain").destinationBucket(BUCKET).destinationKey("copied")
                .taggingDirective(TaggingDirective.COPY).acl(ObjectCannedACL.PRIVATE));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("copied")).asUtf8String()).isEqualTo("plain bytes");
    }

    @Test
    void copyOntoItselfNamingEncryptionIsAllowedAsInS3(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("self").metadata(Map.of("kept", "yes")),
                RequestBody.fromString("self bytes"));
        HeadObjectResponse before = s3.headObject(r -> r.bucket(BUCKET).key("self"));
        assertError(() -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("self").destinationBucket(BUCKET)
                .destinationKey("self")), 400, "InvalidRequest");
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("self").destinationBucket(BUCKET).destinationKey("self")
                .serverSideEncryption(ServerSideEncryption.AES256));
        HeadObjectResponse after = s3.headObject(r -> r.bucket(BUCKET).key("self"));
        assertThat(after.eTag()).isEqualTo(before.eTag());
        assertThat(after.metadata()).containsEntry("kept", "yes");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("self")).asUtf8String()).isEqualTo("self bytes");
    }

    @Test
    void wrongExpectedBucketOwnerIsAccessDeniedForTheBucketAndForACopySource(S3Client s3) {
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("owned").expectedBucketOwner("tenant-b"),
                RequestBody.fromString("x")), 403, "AccessDenied");
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("source").expectedBucketOwner("tenant-b")),
                403, "AccessDenied");
        assertError(() -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("source").destinationBucket(BUCKET)
                .destinationKey("owned").expectedSourceBucketOwner("tenant-b")), 403, "AccessDenied");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("owned")), 404, null);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("source").expectedBucketOwner(owner))
                .asUtf8String()).isEqualTo("source bytes");
    }

    @Test
    void bucketsWithPublicAclsAreRefused(S3Client s3) {
        assertError(() -> s3.createBucket(b -> b.bucket("public").acl(
                BucketCannedACL.PUBLIC_READ)), 403, "AccessDenied");
        assertError(() -> s3.headBucket(b -> b.bucket("public")), 404, null);
    }

    @Test
    void customerKeyEncryptionOverPlainHttpIsRefusedAsS3RefusesIt(S3Client s3) {
        // this gateway serves plain http without sse-c-over-http: SSE-C is refused as S3 refuses it without TLS
        String key = "MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=";
        String keyMd5 = "dnF5x6K/8ZZRzpfSlMMM+w==";
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("customer-key").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(key).sseCustomerKeyMD5(keyMd5), RequestBody.fromString("secret")), 400,
                "InvalidRequest");
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("source").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(key).sseCustomerKeyMD5(keyMd5)), 400, "InvalidRequest");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("customer-key")), 404, null);
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("customer-key")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(key).sseCustomerKeyMD5(keyMd5)), 400,
                "InvalidRequest");
    }

    private record Refused(Consumer<PutObjectRequest.Builder> headers, int status, String code) {
    }
}

package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * The configuration getters through the AWS SDK v2 on the real engine: versioning, ACLs and object tags report what
 * a Coffer bucket is (unversioned, private, untagged); the configurations it never has are S3's "not found" errors;
 * tenant isolation and missing buckets and keys apply as to every action.
 */
class ConfigurationGettersTest {
    static final Credential OTHER = new Credential("GETTERSOTHERKEY", "getters-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    static final String BUCKET = "getters";
    static String owner;

    @BeforeAll
    static void bucket() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        s3.putObject(r -> r.bucket(BUCKET).key("obj"), RequestBody.fromString("bytes"));
        owner = s3.listBuckets().owner().id();
    }

    @Test
    void versioningIsNeverEnabled(S3Client s3) {
        var v = s3.getBucketVersioning(r -> r.bucket(BUCKET));
        assertThat(v.status()).isNull();
        assertThat(v.mfaDelete()).isNull();
    }

    @Test
    void encryptionIsAlwaysAes256AtRest(S3Client s3) {
        var rules = s3.getBucketEncryption(r -> r.bucket(BUCKET)).serverSideEncryptionConfiguration().rules();
        assertThat(rules).singleElement().satisfies(rule -> assertThat(rule.applyServerSideEncryptionByDefault()
                .sseAlgorithm()).isEqualTo(ServerSideEncryption.AES256));
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("obj")).serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);
    }

    @Test
    void aclsAreTheOwnersFullControl(S3Client s3) {
        GetBucketAclResponse bucketAcl = s3.getBucketAcl(r -> r.bucket(BUCKET));
        assertThat(bucketAcl.owner().id()).isEqualTo(owner);
        assertFullControlOfOwner(bucketAcl.grants());
        GetObjectAclResponse objectAcl = s3.getObjectAcl(r -> r.bucket(BUCKET).key("obj"));
        assertThat(objectAcl.owner().id()).isEqualTo(owner);
        assertFullControlOfOwner(objectAcl.grants());
        assertError(() -> s3.getObjectAcl(r -> r.bucket(BUCKET).key("missing")), 404, "NoSuchKey");
    }

    private static void assertFullControlOfOwner(List<Grant> grants) {
        assertThat(grants).hasSize(1);
        assertThat(grants.get(0).permission()).isEqualTo(Permission.FULL_CONTROL);
        assertThat(grants.get(0).grantee().type()).isEqualTo(Type.CANONICAL_USER);
        assertThat(grants.get(0).grantee().id()).isEqualTo(owner);
    }

    @Test
    void anObjectsTagSetIsEmpty(S3Client s3) {
        assertThat(s3.getObjectTagging(r -> r.bucket(BUCKET).key("obj")).tagSet()).isEmpty();
        assertError(() -> s3.getObjectTagging(r -> r.bucket(BUCKET).key("missing")), 404, "NoSuchKey");
    }

    @Test
    void configurationsABucketNeverHasAreS3sNotFoundErrors(S3Client s3) {
        assertError(() -> s3.getBucketTagging(r -> r.bucket(BUCKET)), 404, "NoSuchTagSet");
        assertError(() -> s3.getBucketPolicy(r -> r.bucket(BUCKET)), 404, "NoSuchBucketPolicy");
        assertError(() -> s3.getBucketCors(r -> r.bucket(BUCKET)), 404, "NoSuchCORSConfiguration");
        assertError(() -> s3.getBucketLifecycleConfiguration(r -> r.bucket(BUCKET)), 404,
                "NoSuchLifecycleConfiguration");
        assertError(() -> s3.getBucketWebsite(r -> r.bucket(BUCKET)), 404, "NoSuchWebsiteConfiguration");
        assertError(() -> s3.getObjectLockConfiguration(r -> r.bucket(BUCKET)), 404,
                "ObjectLockConfigurationNotFoundError");
        assertError(() -> s3.getBucketReplication(r -> r.bucket(BUCKET)), 404, "ReplicationConfigurationNotFoundError");
    }

    @Test
    void gettersKeepTenantIsolationAndReportMissingBuckets(S3Client s3) {
        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.getBucketAcl(r -> r.bucket(BUCKET)), 403, "AccessDenied");
            assertError(() -> other.getObjectTagging(r -> r.bucket(BUCKET).key("obj")), 403, "AccessDenied");
            assertError(() -> other.getBucketPolicy(r -> r.bucket(BUCKET)), 403, "AccessDenied");
        }
        assertError(() -> s3.getBucketVersioning(r -> r.bucket("no-such-bucket")), 404, "NoSuchBucket");
        assertError(() -> s3.getBucketCors(r -> r.bucket("no-such-bucket")), 404, "NoSuchBucket");
    }
}

package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionByDefault;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionConfiguration;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;

/**
 * Put/Get/DeleteBucketEncryption through the AWS SDK v2 on the real engine: an AES256 (SSE-S3) default rule is stored
 * with its BucketKeyEnabled flag and read back, deleting it brings back the default rule, KMS is NotImplemented and
 * other documents are refused without changing what was stored.
 */
class BucketEncryptionTest {
    static final Credential OTHER = new Credential("ENCOTHERKEY", "enc-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    @Test
    void aes256RuleIsStoredWithItsBucketKeyFlagAndDeletingItRestoresTheDefault(S3Client s3) {
        String bucket = "enc-config";
        s3.createBucket(b -> b.bucket(bucket));
        assertRule(s3, bucket, false);

        s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(aes256(true)));
        assertRule(s3, bucket, true);
        s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(aes256(false)));
        assertRule(s3, bucket, false);
        s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(aes256(true)));

        s3.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("bytes"));
        assertThat(s3.headObject(r -> r.bucket(bucket).key("k")).serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);

        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.getBucketEncryption(r -> r.bucket(bucket)), 403, "AccessDenied");
            assertError(() -> other.putBucketEncryption(r -> r.bucket(bucket)
                    .serverSideEncryptionConfiguration(aes256(false))), 403, "AccessDenied");
            assertError(() -> other.deleteBucketEncryption(r -> r.bucket(bucket)), 403, "AccessDenied");
        }
        assertRule(s3, bucket, true);

        assertThat(s3.deleteBucketEncryption(r -> r.bucket(bucket)).sdkHttpResponse().statusCode()).isEqualTo(204);
        assertRule(s3, bucket, false);
        assertThat(s3.deleteBucketEncryption(r -> r.bucket(bucket)).sdkHttpResponse().statusCode())
                .as("deleting again is 204 as well").isEqualTo(204);
        assertError(() -> s3.deleteBucketEncryption(r -> r.bucket("enc-missing")), 404, "NoSuchBucket");
    }

    @Test
    void kmsIsNotImplementedAndInvalidConfigurationsAreRefusedKeepingTheStoredOne(S3Client s3) {
        String bucket = "enc-refused";
        s3.createBucket(b -> b.bucket(bucket));
        s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(aes256(true)));

        for (ServerSideEncryption kms : new ServerSideEncryption[] {ServerSideEncryption.AWS_KMS,
            ServerSideEncryption.AWS_KMS_DSSE}) {
            assertError(() -> s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(c -> c
                    .rules(rule(d -> d.sseAlgorithm(kms).kmsMasterKeyID("alias/key"))))), 501, "NotImplemented");
        }
        assertError(() -> s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(c -> c
                .rules(rule(d -> d.sseAlgorithm(ServerSideEncryption.AES256).kmsMasterKeyID("alias/key"))))),
                400, "InvalidArgument");
        assertError(() -> s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(c -> c
                .rules(rule(d -> d.sseAlgorithm("AES128"))))), 400, "MalformedXML");
        assertError(() -> s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(c -> c
                .rules(aes256(false).rules().get(0), aes256(false).rules().get(0)))), 400, "MalformedXML");
        assertError(() -> s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(c -> c
                .rules(ServerSideEncryptionRule.builder().bucketKeyEnabled(true).build()))), 400, "MalformedXML");

        assertRule(s3, bucket, true);
    }

    private static ServerSideEncryptionConfiguration aes256(boolean bucketKey) {
        return ServerSideEncryptionConfiguration.builder().rules(ServerSideEncryptionRule.builder()
                .applyServerSideEncryptionByDefault(d -> d.sseAlgorithm(ServerSideEncryption.AES256))
                .bucketKeyEnabled(bucketKey).build()).build();
    }

    private static ServerSideEncryptionRule rule(Consumer<ServerSideEncryptionByDefault.Builder> byDefault) {
        return ServerSideEncryptionRule.builder().applyServerSideEncryptionByDefault(byDefault).build();
    }

    private static void assertRule(S3Client s3, String bucket, boolean bucketKey) {
        var rules = s3.getBucketEncryption(r -> r.bucket(bucket)).serverSideEncryptionConfiguration().rules();
        assertThat(rules).singleElement().satisfies(rule -> {
            assertThat(rule.applyServerSideEncryptionByDefault().sseAlgorithm()).isEqualTo(ServerSideEncryption.AES256);
            assertThat(rule.applyServerSideEncryptionByDefault().kmsMasterKeyID()).isNull();
            assertThat(rule.bucketKeyEnabled()).isEqualTo(bucketKey);
        });
    }
}

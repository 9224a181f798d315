package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * CreateBucket of an existing name through the AWS SDK v2 on the real engine: one's own bucket in us-east-1 is 200 and
 * keeps what it holds (S3's legacy us-east-1 answer), in another region BucketAlreadyOwnedByYou, another tenant's
 * BucketAlreadyExists.
 */
class CreateBucketTest {
    static final Credential OTHER = new Credential("CREATEBUCKETOTHER", "create-bucket-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    @Test
    void recreatingOnesOwnBucketInUsEast1Is200AndKeepsItsObjects(S3Client s3) {
        s3.createBucket(b -> b.bucket("recreate-east"));
        s3.putObject(r -> r.bucket("recreate-east").key("kept"), RequestBody.fromString("still here"));
        assertThat(s3.createBucket(b -> b.bucket("recreate-east")).sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(s3.createBucket(b -> b.bucket("recreate-east").createBucketConfiguration(c -> c
                .locationConstraint("us-east-1"))).sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(s3.listObjectsV2(r -> r.bucket("recreate-east")).contents()).extracting(S3Object::key)
                .containsExactly("kept");
        assertThat(s3.getObjectAsBytes(r -> r.bucket("recreate-east").key("kept")).asUtf8String())
                .isEqualTo("still here");
    }

    @Test
    void recreatingOnesOwnBucketElsewhereIsBucketAlreadyOwnedByYou(S3Client s3) {
        s3.createBucket(b -> b.bucket("recreate-west").createBucketConfiguration(c -> c.locationConstraint(
                "eu-west-1")));
        assertError(() -> s3.createBucket(b -> b.bucket("recreate-west").createBucketConfiguration(c -> c
                .locationConstraint("eu-west-1"))), 409, "BucketAlreadyOwnedByYou");
        // asked for us-east-1 while it lives elsewhere: not the same bucket request, so no legacy 200
        assertError(() -> s3.createBucket(b -> b.bucket("recreate-west")), 409, "BucketAlreadyOwnedByYou");
    }

    @Test
    void anotherTenantsBucketIsBucketAlreadyExists(S3Client s3) {
        s3.createBucket(b -> b.bucket("recreate-taken"));
        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.createBucket(b -> b.bucket("recreate-taken")), 409, "BucketAlreadyExists");
        }
    }
}

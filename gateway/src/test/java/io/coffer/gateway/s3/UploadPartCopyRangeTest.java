package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * UploadPartCopy's x-amz-copy-source-range through the AWS SDK v2 on the real engine: unlike a GET's Range it is not
 * cut to the source, so a range reaching past the source's end is InvalidRange and stores no part.
 */
class UploadPartCopyRangeTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).minPartSize(1).build());

    static final String BUCKET = "copy-range";

    @BeforeAll
    static void source() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        s3.putObject(r -> r.bucket(BUCKET).key("source"), RequestBody.fromString("12345"));
    }

    @Test
    void rangePastTheSourcesEndIsInvalidRangeAndStoresNothing(S3Client s3) {
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("dest")).uploadId();
        for (String range : new String[] {"bytes=0-21", "bytes=0-5", "bytes=5-5"}) {
            assertError(() -> s3.uploadPartCopy(r -> r.bucket(BUCKET).key("dest").uploadId(id).partNumber(1)
                    .sourceBucket(BUCKET).sourceKey("source").copySourceRange(range)), 416, "InvalidRange");
        }
        assertThat(s3.listParts(r -> r.bucket(BUCKET).key("dest").uploadId(id)).parts()).isEmpty();
    }

    @Test
    void rangeWithinTheSourceIsCopied(S3Client s3) {
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("dest2")).uploadId();
        s3.uploadPartCopy(r -> r.bucket(BUCKET).key("dest2").uploadId(id).partNumber(1)
                .sourceBucket(BUCKET).sourceKey("source").copySourceRange("bytes=1-4"));
        assertThat(s3.listParts(r -> r.bucket(BUCKET).key("dest2").uploadId(id)).parts())
                .singleElement().satisfies(p -> assertThat(p.size()).isEqualTo(4L));
    }
}

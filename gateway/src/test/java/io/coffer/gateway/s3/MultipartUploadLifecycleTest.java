package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * How multipart uploads end besides a plain Complete, as S3 answers it: DeleteBucket aborts the uploads in progress,
 * and a repeated Complete (a client's retry after a lost response) gets the first answer again. AWS SDK v2 over real
 * sockets on the real engine.
 */
class MultipartUploadLifecycleTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @Test
    void deleteBucketAbortsTheUploadsInProgress(S3Client s3) {
        s3.createBucket(r -> r.bucket("only-uploads"));
        String id = s3.createMultipartUpload(r -> r.bucket("only-uploads").key("mp")).uploadId();
        s3.uploadPart(r -> r.bucket("only-uploads").key("mp").uploadId(id).partNumber(1),
                RequestBody.fromString("part"));
        s3.createMultipartUpload(r -> r.bucket("only-uploads").key("other"));

        assertThat(s3.deleteBucket(r -> r.bucket("only-uploads")).sdkHttpResponse().statusCode()).isEqualTo(204);
        assertError(() -> s3.headBucket(r -> r.bucket("only-uploads")), 404, null);
        // a new bucket of the same name starts with no uploads
        s3.createBucket(r -> r.bucket("only-uploads"));
        assertThat(s3.listMultipartUploads(r -> r.bucket("only-uploads")).uploads()).isEmpty();
        assertError(() -> s3.listParts(r -> r.bucket("only-uploads").key("mp").uploadId(id)), 404, "NoSuchUpload");
        s3.deleteBucket(r -> r.bucket("only-uploads"));
    }

    @Test
    void aRepeatedCompleteAnswersLikeTheFirst(S3Client s3) {
        s3.createBucket(r -> r.bucket("retried"));
        String id = s3.createMultipartUpload(r -> r.bucket("retried").key("mp")).uploadId();
        String etag = s3.uploadPart(r -> r.bucket("retried").key("mp").uploadId(id).partNumber(1),
                RequestBody.fromString("only part")).eTag();
        CompleteMultipartUploadRequest complete = CompleteMultipartUploadRequest.builder().bucket("retried").key("mp")
                .uploadId(id).multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))
                .build();
        CompleteMultipartUploadResponse first = s3.completeMultipartUpload(complete);
        CompleteMultipartUploadResponse again = s3.completeMultipartUpload(complete);
        assertThat(again.sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(again.eTag()).isEqualTo(first.eTag()).endsWith("-1\"");
        assertThat(again.location()).isEqualTo(first.location());
        assertThat(s3.getObjectAsBytes(r -> r.bucket("retried").key("mp")).asUtf8String()).isEqualTo("only part");

        // naming other parts is no retry
        assertError(() -> s3.completeMultipartUpload(r -> r.bucket("retried").key("mp").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag("\"" + "0".repeat(32)
                        + "\"").build()))), 404, "NoSuchUpload");
        // once the key holds another version the upload is gone for good
        s3.putObject(r -> r.bucket("retried").key("mp"), RequestBody.fromString("newer"));
        assertError(() -> s3.completeMultipartUpload(complete), 404, "NoSuchUpload");
        assertThat(s3.getObjectAsBytes(r -> r.bucket("retried").key("mp")).asUtf8String()).isEqualTo("newer");
    }
}

package io.coffer.gateway.s3.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.kms.model.DisabledException;
import software.amazon.awssdk.services.kms.model.InvalidCiphertextException;
import software.amazon.awssdk.services.kms.model.KmsException;
import software.amazon.awssdk.services.kms.model.KmsInternalException;
import software.amazon.awssdk.services.kms.model.KmsInvalidStateException;
import software.amazon.awssdk.services.kms.model.NotFoundException;

/**
 * What the KMS answers becomes S3's error: 400 KMS.* for the key's own state, 403 for a refused caller, 503 for a KMS
 * that cannot be reached or fails; messages name the key id and the KMS's code, never its message text.
 */
class KmsErrorsTest {
    private static final String KEY = "alias/app";

    @Test
    void keyStateErrorsAreS3sKmsCodes() {
        assertThat(code(NotFoundException.builder().statusCode(400).build())).isEqualTo(S3ErrorCode.KMS_NOT_FOUND);
        assertThat(code(DisabledException.builder().statusCode(400).build())).isEqualTo(S3ErrorCode.KMS_DISABLED);
        assertThat(code(KmsInvalidStateException.builder().statusCode(400).build()))
                .isEqualTo(S3ErrorCode.KMS_INVALID_STATE);
        assertThat(code(InvalidCiphertextException.builder().statusCode(400).build()))
                .isEqualTo(S3ErrorCode.INTERNAL_ERROR);
        assertThat(S3ErrorCode.KMS_DISABLED.status()).isEqualTo(400);
    }

    @Test
    void unreachableOrFailingKmsIs503AndARefusedCallerIs403() {
        assertThat(code(SdkClientException.create("Connection refused"))).isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE);
        assertThat(code(KmsInternalException.builder().statusCode(500).build()))
                .isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE);
        assertThat(code(KmsException.builder().statusCode(503).build())).isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE);
        KmsException denied = (KmsException) KmsException.builder().statusCode(400).message("User arn:aws:iam::1:x")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDeniedException").build()).build();
        S3Exception e = KmsErrors.translate(denied, KEY);
        assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
        assertThat(e.getMessage()).contains(KEY).doesNotContain("arn:aws:iam");
        KmsException other = (KmsException) KmsException.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("UnrecognizedClientException").build()).build();
        assertThat(KmsErrors.translate(other, KEY).getMessage()).contains("UnrecognizedClientException");
    }

    private static S3ErrorCode code(software.amazon.awssdk.core.exception.SdkException e) {
        return KmsErrors.translate(e, KEY).error();
    }
}

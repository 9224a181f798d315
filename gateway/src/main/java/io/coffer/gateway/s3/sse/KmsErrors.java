package io.coffer.gateway.s3.sse;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kms.model.DependencyTimeoutException;
import software.amazon.awssdk.services.kms.model.DisabledException;
import software.amazon.awssdk.services.kms.model.IncorrectKeyException;
import software.amazon.awssdk.services.kms.model.InvalidArnException;
import software.amazon.awssdk.services.kms.model.InvalidCiphertextException;
import software.amazon.awssdk.services.kms.model.KeyUnavailableException;
import software.amazon.awssdk.services.kms.model.KmsException;
import software.amazon.awssdk.services.kms.model.KmsInternalException;
import software.amazon.awssdk.services.kms.model.KmsInvalidStateException;
import software.amazon.awssdk.services.kms.model.NotFoundException;

/**
 * S3's answers for what a KMS answers SSE-KMS's requests with: an unknown key 400 KMS.NotFoundException, a disabled
 * one 400 KMS.DisabledException, one pending deletion 400 KMS.KMSInvalidStateException, a KMS that cannot be reached or
 * fails 503 ServiceUnavailable. Messages name the key id, never a key, and never repeat the KMS's own text beyond its
 * error code (it may name the caller's account).
 */
final class KmsErrors {
    private KmsErrors() {
    }

    static S3Exception translate(SdkException e, String keyId) {
        if (e instanceof NotFoundException || e instanceof InvalidArnException) {
            return new S3Exception(S3ErrorCode.KMS_NOT_FOUND, "Invalid keyId " + keyId, e);
        }
        if (e instanceof DisabledException) {
            return new S3Exception(S3ErrorCode.KMS_DISABLED, keyId + " is disabled.", e);
        }
        if (e instanceof KmsInvalidStateException) {
            return new S3Exception(S3ErrorCode.KMS_INVALID_STATE, keyId + " is pending deletion or import and cannot"
                    + " be used.", e);
        }
        if (e instanceof InvalidCiphertextException || e instanceof IncorrectKeyException) {
            return new S3Exception(S3ErrorCode.INTERNAL_ERROR, "The KMS could not decrypt the data key stored under "
                    + keyId + ".", e);
        }
        if (e instanceof KmsException k && !(e instanceof KeyUnavailableException)
                && !(e instanceof KmsInternalException) && !(e instanceof DependencyTimeoutException)
                && k.statusCode() < 500) {
            String code = k.awsErrorDetails() == null ? "" : k.awsErrorDetails().errorCode();
            if ("AccessDeniedException".equals(code)) {
                return new S3Exception(S3ErrorCode.ACCESS_DENIED, "The gateway may not use KMS key " + keyId + ".", e);
            }
            return new S3Exception(S3ErrorCode.INTERNAL_ERROR, "The KMS refused a request for key " + keyId + " ("
                    + code + ").", e);
        }
        // not answered (refused connection, timeout) or a 5xx: nothing was written; the client may retry
        return new S3Exception(S3ErrorCode.SERVICE_UNAVAILABLE, "The KMS is unavailable; the request was not carried"
                + " out.", e);
    }
}

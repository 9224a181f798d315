package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.util.function.Supplier;

/**
 * A GET or HEAD of a version that is a delete marker: 405 MethodNotAllowed, with {@code x-amz-delete-marker: true}
 * and the marker's {@code x-amz-version-id} (added where errors become responses, {@link S3Dispatcher}).
 */
final class DeleteMarkerException extends S3Exception {
    private static final long serialVersionUID = 1L;

    private final String versionId;

    DeleteMarkerException(String versionId, Throwable cause) {
        super(S3ErrorCode.METHOD_NOT_ALLOWED, S3ErrorCode.METHOD_NOT_ALLOWED.defaultMessage(), cause);
        this.versionId = versionId;
    }

    String versionId() {
        return versionId;
    }

    /** Runs a read of version {@code versionId}, turning the engine's MethodNotAllowed into this exception. */
    static <T> T read(String versionId, Supplier<T> read) {
        try {
            return read.get();
        } catch (CofferException e) {
            if (e.code() == ErrorCode.METHOD_NOT_ALLOWED && versionId != null) {
                throw new DeleteMarkerException(versionId, e);
            }
            throw e;
        }
    }
}

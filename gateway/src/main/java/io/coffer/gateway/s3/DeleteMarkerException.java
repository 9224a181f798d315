package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectVersion;
import java.util.List;
import java.util.function.Supplier;

/**
 * A GET or HEAD that meets a delete marker, answered with {@code x-amz-delete-marker: true} and the marker's
 * {@code x-amz-version-id} (added where errors become responses, {@link S3Dispatcher}): 405 MethodNotAllowed when the
 * request named the marker's version, 404 NoSuchKey when the marker is the key's current version.
 */
final class DeleteMarkerException extends S3Exception {
    private static final long serialVersionUID = 1L;

    private final String versionId;

    private DeleteMarkerException(S3ErrorCode code, String versionId, Throwable cause) {
        super(code, code.defaultMessage(), cause);
        this.versionId = versionId;
    }

    String versionId() {
        return versionId;
    }

    /**
     * Runs a read of version {@code versionId} (null: the current version) of {@code key}, turning the engine's
     * MethodNotAllowed, or a NoSuchKey where the current version is a delete marker, into this exception.
     */
    static <T> T read(Coffer coffer, String bucket, String key, String versionId, Supplier<T> read) {
        try {
            return read.get();
        } catch (CofferException e) {
            if (e.code() == ErrorCode.METHOD_NOT_ALLOWED && versionId != null) {
                throw new DeleteMarkerException(S3ErrorCode.METHOD_NOT_ALLOWED, versionId, e);
            }
            if (e.code() == ErrorCode.NO_SUCH_KEY && versionId == null) {
                // the key sorts first among those it prefixes: one entry tells whether its newest is a marker
                List<ObjectVersion> first = coffer.listObjectVersions(bucket, key, null, null, null, 1).versions();
                if (!first.isEmpty() && first.get(0).key().equals(key) && first.get(0).deleteMarker()
                        && first.get(0).latest()) {
                    throw new DeleteMarkerException(S3ErrorCode.NO_SUCH_KEY, first.get(0).versionId(), e);
                }
            }
            throw e;
        }
    }
}

package io.coffer.sdk;

/**
 * An engine operation failed for a reason a caller can act on; {@link #code()} says which. Messages never contain key
 * material or object data.
 *
 * <p>The subclass tells the kind of failure, the code the exact one: {@link NotFound} (no such bucket, key or
 * upload), {@link Rejected} (the request itself is wrong: retrying it unchanged fails again), {@link Conflict} (the
 * current state forbids it), {@link Damaged} (stored data failed its integrity check) and {@link Unavailable} (the
 * backend, metadata store or a transient race; the request may succeed when retried). {@link #of} picks the subclass
 * for a code.
 */
public class CofferException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    protected CofferException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The exception for {@code code}, of the subclass that code belongs to. */
    public static CofferException of(ErrorCode code, String message) {
        return of(code, message, null);
    }

    public static CofferException of(ErrorCode code, String message, Throwable cause) {
        return switch (code) {
            case NO_SUCH_BUCKET, NO_SUCH_KEY, NO_SUCH_UPLOAD, OBJECT_LOCK_CONFIGURATION_NOT_FOUND,
                 NO_SUCH_OBJECT_LOCK_CONFIGURATION -> new NotFound(code, message, cause);
            case BUCKET_ALREADY_EXISTS, BUCKET_ALREADY_OWNED_BY_YOU, BUCKET_NOT_EMPTY, PRECONDITION_FAILED,
                 ACCESS_DENIED, INVALID_BUCKET_STATE ->
                    new Conflict(code, message, cause);
            case INTEGRITY_ERROR -> new Damaged(code, message, cause);
            case CONFLICT_RETRY, SERVICE_UNAVAILABLE, INTERNAL_ERROR -> new Unavailable(code, message, cause);
            default -> new Rejected(code, message, cause);
        };
    }

    public ErrorCode code() {
        return code;
    }

    public static CofferException noSuchBucket(String bucket) {
        return of(ErrorCode.NO_SUCH_BUCKET, "The specified bucket does not exist: " + bucket);
    }

    public static CofferException noSuchKey(String bucket, String key) {
        return of(ErrorCode.NO_SUCH_KEY, "The specified key does not exist: " + bucket + "/" + key);
    }

    public static CofferException noSuchUpload(String uploadId) {
        return of(ErrorCode.NO_SUCH_UPLOAD, "The specified upload does not exist: " + uploadId);
    }

    public static CofferException invalid(String message) {
        return of(ErrorCode.INVALID_ARGUMENT, message);
    }

    /** A bucket, key or upload does not exist. */
    public static final class NotFound extends CofferException {
        private static final long serialVersionUID = 1L;

        NotFound(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }

    /** The request is malformed or out of bounds; retrying it unchanged fails the same way. */
    public static final class Rejected extends CofferException {
        private static final long serialVersionUID = 1L;

        Rejected(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }

    /** The current state forbids the request (the bucket exists, is not empty, a precondition does not hold). */
    public static final class Conflict extends CofferException {
        private static final long serialVersionUID = 1L;

        Conflict(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }

    /** Stored data failed its integrity check: the backend lost or altered bytes. */
    public static final class Damaged extends CofferException {
        private static final long serialVersionUID = 1L;

        Damaged(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }

    /** A backend, the metadata store or a transient race failed the request; it may succeed when retried. */
    public static final class Unavailable extends CofferException {
        private static final long serialVersionUID = 1L;

        Unavailable(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }
}

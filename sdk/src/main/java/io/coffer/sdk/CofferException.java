package io.coffer.sdk;

/**
 * An engine operation failed for a reason a caller can act on; {@link #code()} says which. Messages never contain key
 * material or object data.
 */
public class CofferException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public CofferException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public CofferException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public static CofferException noSuchBucket(String bucket) {
        return new CofferException(ErrorCode.NO_SUCH_BUCKET, "The specified bucket does not exist: " + bucket);
    }

    public static CofferException noSuchKey(String bucket, String key) {
        return new CofferException(ErrorCode.NO_SUCH_KEY, "The specified key does not exist: " + bucket + "/" + key);
    }

    public static CofferException noSuchUpload(String uploadId) {
        return new CofferException(ErrorCode.NO_SUCH_UPLOAD, "The specified upload does not exist: " + uploadId);
    }

    public static CofferException invalid(String message) {
        return new CofferException(ErrorCode.INVALID_ARGUMENT, message);
    }
}

package io.coffer.sdk;

/**
 * Why an engine operation failed, named after the S3 error code a gateway reports for it. The engine knows nothing
 * of HTTP; the gateway maps each code to its status in one place.
 */
public enum ErrorCode {
    NO_SUCH_BUCKET("NoSuchBucket"),
    NO_SUCH_KEY("NoSuchKey"),
    NO_SUCH_UPLOAD("NoSuchUpload"),
    /** A version id names no version of the key. */
    NO_SUCH_VERSION("NoSuchVersion"),
    /** A read of a version that is a delete marker. */
    METHOD_NOT_ALLOWED("MethodNotAllowed"),
    BUCKET_ALREADY_EXISTS("BucketAlreadyExists"),
    BUCKET_ALREADY_OWNED_BY_YOU("BucketAlreadyOwnedByYou"),
    BUCKET_NOT_EMPTY("BucketNotEmpty"),
    INVALID_BUCKET_NAME("InvalidBucketName"),
    KEY_TOO_LONG("KeyTooLongError"),
    INVALID_ARGUMENT("InvalidArgument"),
    INVALID_RANGE("InvalidRange"),
    INVALID_PART("InvalidPart"),
    INVALID_PART_ORDER("InvalidPartOrder"),
    INVALID_PART_NUMBER("InvalidPartNumber"),
    ENTITY_TOO_SMALL("EntityTooSmall"),
    ENTITY_TOO_LARGE("EntityTooLarge"),
    BAD_DIGEST("BadDigest"),
    INCOMPLETE_BODY("IncompleteBody"),
    PRECONDITION_FAILED("PreconditionFailed"),
    METADATA_TOO_LARGE("MetadataTooLarge"),
    /** A tag set breaks S3's tagging rules (count, lengths, characters, a repeated or reserved key). */
    INVALID_TAG("InvalidTag"),
    /** Object Lock: a locked version's deletion, or a shortening of its retention, that is not allowed. */
    ACCESS_DENIED("AccessDenied"),
    /** A request S3 refuses as a whole (Object Lock asked of a bucket without it). */
    INVALID_REQUEST("InvalidRequest"),
    /** The bucket's state forbids the change (suspending versioning of a bucket with Object Lock). */
    INVALID_BUCKET_STATE("InvalidBucketState"),
    /** A default retention period that is not a positive number of days or years. */
    INVALID_RETENTION_PERIOD("InvalidRetentionPeriod"),
    /** The bucket has no Object Lock configuration. */
    OBJECT_LOCK_CONFIGURATION_NOT_FOUND("ObjectLockConfigurationNotFoundError"),
    /** The version has no retention (GetObjectRetention) or no legal hold set (GetObjectLegalHold). */
    NO_SUCH_OBJECT_LOCK_CONFIGURATION("NoSuchObjectLockConfiguration"),
    /** Stored data failed its integrity check: the backend lost or altered bytes. */
    INTEGRITY_ERROR("InternalError"),
    /** A transient conflict (for example a chunk collected while a write referenced it); the client may retry. */
    CONFLICT_RETRY("InternalError"),
    SERVICE_UNAVAILABLE("ServiceUnavailable"),
    /** Too many writes hold memory at once; nothing was read or stored, the client should retry later. */
    SLOW_DOWN("SlowDown"),
    INTERNAL_ERROR("InternalError");

    private final String s3Code;

    ErrorCode(String s3Code) {
        this.s3Code = s3Code;
    }

    /** The S3 error code string, for example {@code NoSuchKey}. */
    public String s3Code() {
        return s3Code;
    }
}

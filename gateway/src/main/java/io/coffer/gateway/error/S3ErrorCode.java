package io.coffer.gateway.error;

import io.coffer.sdk.ErrorCode;

/** Every S3 error the gateway can answer: its wire code as S3 spells it, its HTTP status and AWS's default message. */
public enum S3ErrorCode {
    ACCESS_DENIED("AccessDenied", 403, "Access Denied"),
    AUTHORIZATION_HEADER_MALFORMED("AuthorizationHeaderMalformed", 400, "The authorization header is malformed."),
    AUTHORIZATION_QUERY_PARAMETERS_ERROR("AuthorizationQueryParametersError", 400,
            "Error parsing the X-Amz-Credential parameter."),
    BAD_DIGEST("BadDigest", 400, "The Content-MD5 you specified did not match what we received."),
    BAD_REQUEST("BadRequest", 400, "Insufficient information. Origin request header needed."),
    BUCKET_ALREADY_EXISTS("BucketAlreadyExists", 409,
            "The requested bucket name is not available. The bucket namespace is shared by all users of the system."
            + " Please select a different name and try again."),
    BUCKET_ALREADY_OWNED_BY_YOU("BucketAlreadyOwnedByYou", 409,
            "Your previous request to create the named bucket succeeded and you already own it."),
    BUCKET_NOT_EMPTY("BucketNotEmpty", 409, "The bucket you tried to delete is not empty"),
    CORS_RESPONSE("CORSResponse", 403, "This CORS request is not allowed. This is usually because the evalution of"
            + " Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not"
            + " whitelisted by the resource's CORS spec."),
    ENTITY_TOO_LARGE("EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed object size."),
    ENTITY_TOO_SMALL("EntityTooSmall", 400, "Your proposed upload is smaller than the minimum allowed object size."),
    INCOMPLETE_BODY("IncompleteBody", 400,
            "You did not provide the number of bytes specified by the Content-Length HTTP header."),
    INTERNAL_ERROR("InternalError", 500, "We encountered an internal error. Please try again."),
    INVALID_ACCESS_KEY_ID("InvalidAccessKeyId", 403,
            "The AWS Access Key Id you provided does not exist in our records."),
    INVALID_ARGUMENT("InvalidArgument", 400, "Invalid Argument"),
    INVALID_BUCKET_NAME("InvalidBucketName", 400, "The specified bucket is not valid."),
    INVALID_BUCKET_STATE("InvalidBucketState", 409, "The request is not valid with the current state of the bucket."),
    INVALID_CHUNK_SIZE_ERROR("InvalidChunkSizeError", 403,
            "Only the last chunk is allowed to have a size less than 8192 bytes"),
    INVALID_DIGEST("InvalidDigest", 400, "The Content-MD5 you specified is not valid."),
    INVALID_PART("InvalidPart", 400,
            "One or more of the specified parts could not be found. The part might not have been uploaded, or the"
            + " specified entity tag might not have matched the part's entity tag."),
    INVALID_PART_ORDER("InvalidPartOrder", 400,
            "The list of parts was not in ascending order. The parts list must be specified in order by part number."),
    INVALID_PART_NUMBER("InvalidPartNumber", 416, "The requested partnumber is not satisfiable"),
    INVALID_POLICY_DOCUMENT("InvalidPolicyDocument", 400,
            "The content of the form does not meet the conditions specified in the policy document."),
    INVALID_RANGE("InvalidRange", 416, "The requested range is not satisfiable"),
    INVALID_REQUEST("InvalidRequest", 400, "Invalid Request"),
    INVALID_RETENTION_PERIOD("InvalidRetentionPeriod", 400,
            "Default retention period must be a positive integer value."),
    INVALID_TAG("InvalidTag", 400, "The tag provided was not a valid tag."),
    INVALID_URI("InvalidURI", 400, "Couldn't parse the specified URI."),
    KEY_TOO_LONG_ERROR("KeyTooLongError", 400, "Your key is too long"),
    MALFORMED_TRAILER_ERROR("MalformedTrailerError", 400,
            "The request contained trailing data that was not well-formed or did not conform to our published schema."),
    MALFORMED_ACL_ERROR("MalformedACLError", 400,
            "The XML you provided was not well-formed or did not validate against our published schema."),
    MALFORMED_POST_REQUEST("MalformedPOSTRequest", 400,
            "The body of your POST request is not well-formed multipart/form-data."),
    /** S3's answer for a KMS key id the key service does not know (here: one the keyring does not hold). */
    KMS_NOT_FOUND("KMS.NotFoundException", 400, "Invalid keyId"),
    /** S3's answer for a KMS key that is disabled (SSE-KMS through a KMS). */
    KMS_DISABLED("KMS.DisabledException", 400, "The KMS key is disabled."),
    /** S3's answer for a KMS key pending deletion or import (SSE-KMS through a KMS). */
    KMS_INVALID_STATE("KMS.KMSInvalidStateException", 400, "The KMS key is not in a state that allows its use."),
    MALFORMED_XML("MalformedXML", 400,
            "The XML you provided was not well-formed or did not validate against our published schema."),
    MAX_POST_PRE_DATA_LENGTH_EXCEEDED_ERROR("MaxPostPreDataLengthExceededError", 400,
            "Your POST request fields preceding the upload file were too large."),
    METADATA_TOO_LARGE("MetadataTooLarge", 400, "Your metadata headers exceed the maximum allowed metadata size."),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405, "The specified method is not allowed against this resource."),
    MISSING_CONTENT_LENGTH("MissingContentLength", 411, "You must provide the Content-Length HTTP header."),
    MISSING_SECURITY_HEADER("MissingSecurityHeader", 400, "Your request is missing a required header."),
    NO_SUCH_BUCKET("NoSuchBucket", 404, "The specified bucket does not exist"),
    NO_SUCH_BUCKET_POLICY("NoSuchBucketPolicy", 404, "The bucket policy does not exist"),
    NO_SUCH_CORS_CONFIGURATION("NoSuchCORSConfiguration", 404, "The CORS configuration does not exist"),
    NO_SUCH_KEY("NoSuchKey", 404, "The specified key does not exist."),
    NO_SUCH_OBJECT_LOCK_CONFIGURATION("NoSuchObjectLockConfiguration", 404,
            "The specified object does not have a ObjectLock configuration"),
    NO_SUCH_PUBLIC_ACCESS_BLOCK_CONFIGURATION("NoSuchPublicAccessBlockConfiguration", 404,
            "The public access block configuration was not found"),
    NO_SUCH_LIFECYCLE_CONFIGURATION("NoSuchLifecycleConfiguration", 404, "The lifecycle configuration does not exist"),
    NO_SUCH_TAG_SET("NoSuchTagSet", 404, "The TagSet does not exist"),
    NO_SUCH_UPLOAD("NoSuchUpload", 404,
            "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted"
            + " or completed."),
    NOT_IMPLEMENTED("NotImplemented", 501,
            "A header or query you provided implies functionality that is not implemented."),
    NO_SUCH_VERSION("NoSuchVersion", 404, "The specified version does not exist."),
    NO_SUCH_WEBSITE_CONFIGURATION("NoSuchWebsiteConfiguration", 404,
            "The specified bucket does not have a website configuration"),
    NOT_MODIFIED("NotModified", 304, "Not Modified"),
    OBJECT_LOCK_CONFIGURATION_NOT_FOUND_ERROR("ObjectLockConfigurationNotFoundError", 404,
            "Object Lock configuration does not exist for this bucket"),
    PRECONDITION_FAILED("PreconditionFailed", 412, "At least one of the pre-conditions you specified did not hold"),
    REPLICATION_CONFIGURATION_NOT_FOUND_ERROR("ReplicationConfigurationNotFoundError", 404,
            "The replication configuration was not found"),
    REQUEST_HEADER_SECTION_TOO_LARGE("RequestHeaderSectionTooLarge", 400,
            "Your request header section exceeds the maximum allowed size."),
    REQUEST_TIME_TOO_SKEWED("RequestTimeTooSkewed", 403,
            "The difference between the request time and the server's time is too large."),
    REQUEST_TIMEOUT("RequestTimeout", 400,
            "Your socket connection to the server was not read from or written to within the timeout period."),
    SERVICE_UNAVAILABLE("ServiceUnavailable", 503, "Please reduce your request rate."),
    /** Not an AWS code (S3 never fills up): the status of RFC 4918 that MinIO also answers a full store with. */
    STORAGE_FULL("XCofferStorageFull", 507, "The store is full: free space or raise its limit."),
    SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403,
            "The request signature we calculated does not match the signature you provided. Check your key and"
            + " signing method."),
    SLOW_DOWN("SlowDown", 503, "Please reduce your request rate."),
    X_AMZ_CONTENT_SHA256_MISMATCH("XAmzContentSHA256Mismatch", 400,
            "The provided 'x-amz-content-sha256' header does not match what was computed."),
    X_AMZ_CONTENT_CHECKSUM_MISMATCH("XAmzContentChecksumMismatch", 400,
            "The provided checksum does not match what was computed.");

    private final int status;
    private final String message;
    private final String code;

    S3ErrorCode(String code, int status, String message) {
        this.code = code;
        this.status = status;
        this.message = message;
    }

    public int status() {
        return status;
    }

    public String defaultMessage() {
        return message;
    }

    /** The code as it appears in the {@code <Code>} element, for example {@code NoSuchKey}. */
    public String code() {
        return code;
    }

    /** The S3 error an engine failure is reported as: the one mapping from {@link ErrorCode} to the wire. */
    public static S3ErrorCode of(ErrorCode engineCode) {
        return switch (engineCode) {
            case NO_SUCH_BUCKET -> NO_SUCH_BUCKET;
            case NO_SUCH_KEY -> NO_SUCH_KEY;
            case NO_SUCH_UPLOAD -> NO_SUCH_UPLOAD;
            case NO_SUCH_VERSION -> NO_SUCH_VERSION;
            case METHOD_NOT_ALLOWED -> METHOD_NOT_ALLOWED;
            case BUCKET_ALREADY_EXISTS -> BUCKET_ALREADY_EXISTS;
            case BUCKET_ALREADY_OWNED_BY_YOU -> BUCKET_ALREADY_OWNED_BY_YOU;
            case BUCKET_NOT_EMPTY -> BUCKET_NOT_EMPTY;
            case INVALID_BUCKET_NAME -> INVALID_BUCKET_NAME;
            case KEY_TOO_LONG -> KEY_TOO_LONG_ERROR;
            case INVALID_ARGUMENT -> INVALID_ARGUMENT;
            case INVALID_RANGE -> INVALID_RANGE;
            case INVALID_PART -> INVALID_PART;
            case INVALID_PART_ORDER -> INVALID_PART_ORDER;
            case INVALID_PART_NUMBER -> INVALID_PART_NUMBER;
            case ENTITY_TOO_SMALL -> ENTITY_TOO_SMALL;
            case ENTITY_TOO_LARGE -> ENTITY_TOO_LARGE;
            case BAD_DIGEST -> BAD_DIGEST;
            case INCOMPLETE_BODY -> INCOMPLETE_BODY;
            case PRECONDITION_FAILED -> PRECONDITION_FAILED;
            case METADATA_TOO_LARGE -> METADATA_TOO_LARGE;
            case INVALID_TAG -> INVALID_TAG;
            case ACCESS_DENIED -> ACCESS_DENIED;
            case INVALID_REQUEST -> INVALID_REQUEST;
            case INVALID_BUCKET_STATE -> INVALID_BUCKET_STATE;
            case INVALID_RETENTION_PERIOD -> INVALID_RETENTION_PERIOD;
            case OBJECT_LOCK_CONFIGURATION_NOT_FOUND -> OBJECT_LOCK_CONFIGURATION_NOT_FOUND_ERROR;
            case NO_SUCH_OBJECT_LOCK_CONFIGURATION -> NO_SUCH_OBJECT_LOCK_CONFIGURATION;
            case SERVICE_UNAVAILABLE -> SERVICE_UNAVAILABLE;
            case SLOW_DOWN -> SLOW_DOWN;
            case INTEGRITY_ERROR, CONFLICT_RETRY, INTERNAL_ERROR -> INTERNAL_ERROR;
        };
    }
}

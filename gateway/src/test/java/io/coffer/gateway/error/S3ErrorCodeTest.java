package io.coffer.gateway.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3ErrorCodeTest {
    /** Every wire code as the gateway answered it when the codes were derived from the constants' names. */
    private static final Map<S3ErrorCode, String> WIRE_CODES = Map.ofEntries(
            Map.entry(S3ErrorCode.ACCESS_DENIED, "AccessDenied"),
            Map.entry(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED, "AuthorizationHeaderMalformed"),
            Map.entry(S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "AuthorizationQueryParametersError"),
            Map.entry(S3ErrorCode.BAD_DIGEST, "BadDigest"),
            Map.entry(S3ErrorCode.BAD_REQUEST, "BadRequest"),
            Map.entry(S3ErrorCode.BUCKET_ALREADY_EXISTS, "BucketAlreadyExists"),
            Map.entry(S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU, "BucketAlreadyOwnedByYou"),
            Map.entry(S3ErrorCode.BUCKET_NOT_EMPTY, "BucketNotEmpty"),
            Map.entry(S3ErrorCode.CORS_RESPONSE, "CORSResponse"),
            Map.entry(S3ErrorCode.ENTITY_TOO_LARGE, "EntityTooLarge"),
            Map.entry(S3ErrorCode.ENTITY_TOO_SMALL, "EntityTooSmall"),
            Map.entry(S3ErrorCode.INCOMPLETE_BODY, "IncompleteBody"),
            Map.entry(S3ErrorCode.INTERNAL_ERROR, "InternalError"),
            Map.entry(S3ErrorCode.INVALID_TAG, "InvalidTag"),
            Map.entry(S3ErrorCode.INVALID_ACCESS_KEY_ID, "InvalidAccessKeyId"),
            Map.entry(S3ErrorCode.INVALID_ARGUMENT, "InvalidArgument"),
            Map.entry(S3ErrorCode.INVALID_BUCKET_NAME, "InvalidBucketName"),
            Map.entry(S3ErrorCode.INVALID_BUCKET_STATE, "InvalidBucketState"),
            Map.entry(S3ErrorCode.INVALID_RETENTION_PERIOD, "InvalidRetentionPeriod"),
            Map.entry(S3ErrorCode.NO_SUCH_OBJECT_LOCK_CONFIGURATION, "NoSuchObjectLockConfiguration"),
            Map.entry(S3ErrorCode.INVALID_CHUNK_SIZE_ERROR, "InvalidChunkSizeError"),
            Map.entry(S3ErrorCode.INVALID_DIGEST, "InvalidDigest"),
            Map.entry(S3ErrorCode.INVALID_PART, "InvalidPart"),
            Map.entry(S3ErrorCode.INVALID_PART_ORDER, "InvalidPartOrder"),
            Map.entry(S3ErrorCode.INVALID_POLICY_DOCUMENT, "InvalidPolicyDocument"),
            Map.entry(S3ErrorCode.INVALID_PART_NUMBER, "InvalidPartNumber"),
            Map.entry(S3ErrorCode.INVALID_RANGE, "InvalidRange"),
            Map.entry(S3ErrorCode.INVALID_REQUEST, "InvalidRequest"),
            Map.entry(S3ErrorCode.INVALID_URI, "InvalidURI"),
            Map.entry(S3ErrorCode.KEY_TOO_LONG_ERROR, "KeyTooLongError"),
            Map.entry(S3ErrorCode.MALFORMED_TRAILER_ERROR, "MalformedTrailerError"),
            Map.entry(S3ErrorCode.MALFORMED_ACL_ERROR, "MalformedACLError"),
            Map.entry(S3ErrorCode.MALFORMED_XML, "MalformedXML"),
            Map.entry(S3ErrorCode.MALFORMED_POST_REQUEST, "MalformedPOSTRequest"),
            Map.entry(S3ErrorCode.METADATA_TOO_LARGE, "MetadataTooLarge"),
            Map.entry(S3ErrorCode.MAX_POST_PRE_DATA_LENGTH_EXCEEDED_ERROR, "MaxPostPreDataLengthExceededError"),
            Map.entry(S3ErrorCode.METHOD_NOT_ALLOWED, "MethodNotAllowed"),
            Map.entry(S3ErrorCode.MISSING_CONTENT_LENGTH, "MissingContentLength"),
            Map.entry(S3ErrorCode.KMS_NOT_FOUND, "KMS.NotFoundException"),
            Map.entry(S3ErrorCode.KMS_DISABLED, "KMS.DisabledException"),
            Map.entry(S3ErrorCode.KMS_INVALID_STATE, "KMS.KMSInvalidStateException"),
            Map.entry(S3ErrorCode.MISSING_SECURITY_HEADER, "MissingSecurityHeader"),
            Map.entry(S3ErrorCode.NO_SUCH_BUCKET, "NoSuchBucket"),
            Map.entry(S3ErrorCode.NO_SUCH_BUCKET_POLICY, "NoSuchBucketPolicy"),
            Map.entry(S3ErrorCode.NO_SUCH_CORS_CONFIGURATION, "NoSuchCORSConfiguration"),
            Map.entry(S3ErrorCode.NO_SUCH_KEY, "NoSuchKey"),
            Map.entry(S3ErrorCode.NO_SUCH_LIFECYCLE_CONFIGURATION, "NoSuchLifecycleConfiguration"),
            Map.entry(S3ErrorCode.NO_SUCH_PUBLIC_ACCESS_BLOCK_CONFIGURATION, "NoSuchPublicAccessBlockConfiguration"),
            Map.entry(S3ErrorCode.NO_SUCH_TAG_SET, "NoSuchTagSet"),
            Map.entry(S3ErrorCode.NO_SUCH_UPLOAD, "NoSuchUpload"),
            Map.entry(S3ErrorCode.NOT_IMPLEMENTED, "NotImplemented"),
            Map.entry(S3ErrorCode.NO_SUCH_VERSION, "NoSuchVersion"),
            Map.entry(S3ErrorCode.NO_SUCH_WEBSITE_CONFIGURATION, "NoSuchWebsiteConfiguration"),
            Map.entry(S3ErrorCode.NOT_MODIFIED, "NotModified"),
            Map.entry(S3ErrorCode.OBJECT_LOCK_CONFIGURATION_NOT_FOUND_ERROR, "ObjectLockConfigurationNotFoundError"),
            Map.entry(S3ErrorCode.PRECONDITION_FAILED, "PreconditionFailed"),
            Map.entry(S3ErrorCode.REPLICATION_CONFIGURATION_NOT_FOUND_ERROR, "ReplicationConfigurationNotFoundError"),
            Map.entry(S3ErrorCode.REQUEST_HEADER_SECTION_TOO_LARGE, "RequestHeaderSectionTooLarge"),
            Map.entry(S3ErrorCode.REQUEST_TIME_TOO_SKEWED, "RequestTimeTooSkewed"),
            Map.entry(S3ErrorCode.REQUEST_TIMEOUT, "RequestTimeout"),
            Map.entry(S3ErrorCode.SERVICE_UNAVAILABLE, "ServiceUnavailable"),
            Map.entry(S3ErrorCode.STORAGE_FULL, "XCofferStorageFull"),
            Map.entry(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "SignatureDoesNotMatch"),
            Map.entry(S3ErrorCode.SLOW_DOWN, "SlowDown"),
            Map.entry(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH, "XAmzContentSHA256Mismatch"),
            Map.entry(S3ErrorCode.X_AMZ_CONTENT_CHECKSUM_MISMATCH, "XAmzContentChecksumMismatch"));

    @Test
    void everyWireCodeIsTheOneS3Spells() {
        assertThat(WIRE_CODES).hasSize(S3ErrorCode.values().length);
        for (S3ErrorCode c : S3ErrorCode.values()) {
            assertThat(c.code()).as(c.name()).isEqualTo(WIRE_CODES.get(c));
        }
    }

    @Test
    void everyEngineCodeMapsToTheS3CodeItIsNamedAfter() {
        for (ErrorCode e : ErrorCode.values()) {
            assertThat(S3ErrorCode.of(e).code()).as(e.name()).isEqualTo(e.s3Code());
        }
    }
}

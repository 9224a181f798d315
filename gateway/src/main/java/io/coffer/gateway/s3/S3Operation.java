package io.coffer.gateway.s3;

/** The S3 actions the gateway routes, as used by dispatch, metrics tags and the access log. */
public enum S3Operation {
    LIST_BUCKETS("ListBuckets"),
    CREATE_BUCKET("CreateBucket"),
    HEAD_BUCKET("HeadBucket"),
    DELETE_BUCKET("DeleteBucket"),
    GET_BUCKET_LOCATION("GetBucketLocation"),
    LIST_OBJECTS("ListObjects"),
    LIST_OBJECTS_V2("ListObjectsV2"),
    LIST_OBJECT_VERSIONS("ListObjectVersions"),
    PUT_OBJECT("PutObject"),
    /** A browser form upload (multipart/form-data POST to the bucket), authenticated by its signed policy. */
    POST_OBJECT("PostObject"),
    GET_OBJECT("GetObject"),
    HEAD_OBJECT("HeadObject"),
    DELETE_OBJECT("DeleteObject"),
    DELETE_OBJECTS("DeleteObjects"),
    COPY_OBJECT("CopyObject"),
    CREATE_MULTIPART_UPLOAD("CreateMultipartUpload"),
    UPLOAD_PART("UploadPart"),
    UPLOAD_PART_COPY("UploadPartCopy"),
    COMPLETE_MULTIPART_UPLOAD("CompleteMultipartUpload"),
    ABORT_MULTIPART_UPLOAD("AbortMultipartUpload"),
    LIST_PARTS("ListParts"),
    LIST_MULTIPART_UPLOADS("ListMultipartUploads"),
    GET_BUCKET_VERSIONING("GetBucketVersioning"),
    PUT_BUCKET_VERSIONING("PutBucketVersioning"),
    GET_BUCKET_ACL("GetBucketAcl"),
    GET_OBJECT_ACL("GetObjectAcl"),
    PUT_BUCKET_ACL("PutBucketAcl"),
    PUT_OBJECT_ACL("PutObjectAcl"),
    GET_PUBLIC_ACCESS_BLOCK("GetPublicAccessBlock"),
    PUT_PUBLIC_ACCESS_BLOCK("PutPublicAccessBlock"),
    DELETE_PUBLIC_ACCESS_BLOCK("DeletePublicAccessBlock"),
    GET_OBJECT_ATTRIBUTES("GetObjectAttributes"),
    GET_OBJECT_TAGGING("GetObjectTagging"),
    PUT_OBJECT_TAGGING("PutObjectTagging"),
    DELETE_OBJECT_TAGGING("DeleteObjectTagging"),
    GET_BUCKET_TAGGING("GetBucketTagging"),
    PUT_BUCKET_TAGGING("PutBucketTagging"),
    DELETE_BUCKET_TAGGING("DeleteBucketTagging"),
    GET_BUCKET_POLICY("GetBucketPolicy"),
    GET_BUCKET_CORS("GetBucketCors"),
    PUT_BUCKET_CORS("PutBucketCors"),
    DELETE_BUCKET_CORS("DeleteBucketCors"),
    /** A CORS preflight ({@code OPTIONS} on a bucket or object), answered without authentication. */
    PREFLIGHT("PreflightRequest"),
    GET_BUCKET_LIFECYCLE_CONFIGURATION("GetBucketLifecycleConfiguration"),
    PUT_BUCKET_LIFECYCLE_CONFIGURATION("PutBucketLifecycleConfiguration"),
    DELETE_BUCKET_LIFECYCLE("DeleteBucketLifecycle"),
    GET_BUCKET_WEBSITE("GetBucketWebsite"),
    GET_OBJECT_LOCK_CONFIGURATION("GetObjectLockConfiguration"),
    PUT_OBJECT_LOCK_CONFIGURATION("PutObjectLockConfiguration"),
    GET_OBJECT_RETENTION("GetObjectRetention"),
    PUT_OBJECT_RETENTION("PutObjectRetention"),
    GET_OBJECT_LEGAL_HOLD("GetObjectLegalHold"),
    PUT_OBJECT_LEGAL_HOLD("PutObjectLegalHold"),
    GET_BUCKET_REPLICATION("GetBucketReplication"),
    GET_BUCKET_ENCRYPTION("GetBucketEncryption"),
    PUT_BUCKET_ENCRYPTION("PutBucketEncryption"),
    DELETE_BUCKET_ENCRYPTION("DeleteBucketEncryption"),
    /** A request for an S3 feature the gateway does not offer: answered 501 NotImplemented. */
    NOT_IMPLEMENTED("NotImplemented"),
    /** A request that failed before it could be routed (malformed HTTP, bad signature ...). */
    UNKNOWN("Unknown");

    private final String actionName;

    S3Operation(String actionName) {
        this.actionName = actionName;
    }

    /** The AWS action name, for example {@code PutObject}. */
    public String actionName() {
        return actionName;
    }

    /**
     * False where the x-amz-checksum-* headers are the checksum of the object being made, not of the request body
     * (CompleteMultipartUpload).
     */
    public boolean checksumHeadersDescribeBody() {
        return this != COMPLETE_MULTIPART_UPLOAD;
    }

    /** True for operations whose request body is object data streamed to the engine. */
    public boolean streamsBody() {
        return this == PUT_OBJECT || this == UPLOAD_PART || this == POST_OBJECT;
    }
}

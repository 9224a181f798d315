package io.coffer.sdk;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A PUT: where, how long, and what to check before committing.
 *
 * @param contentLength  the body length, or -1 when unknown (streamed until EOF); a body of another length is
 *                       {@link ErrorCode#INCOMPLETE_BODY} and nothing is stored
 * @param contentMd5     the expected MD5 of the body (Content-MD5), or null; a mismatch is {@link ErrorCode#BAD_DIGEST}
 * @param checksums      asked once the body has been read (trailing checksums are known only then): checksums to store
 *                       with the object; may be null
 * @param bucketRecord   the bucket's record as the caller read it for this request, or null: with it the engine does
 *                       not read it again before the body (the commit still checks that the bucket exists)
 * @param customerKey    the client's key for this object (SSE-C), or null: the object is then stored under it
 *                       ({@link CustomerKey}), never inline nor in layer mode
 */
public record PutObjectRequest(String bucket, String key, long contentLength, ObjectAttributes attributes,
                               byte[] contentMd5, Precondition precondition,
                               Supplier<Map<String, String>> checksums, Bucket bucketRecord,
                               CustomerKey customerKey) {
    public PutObjectRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        attributes = attributes == null ? ObjectAttributes.EMPTY : attributes;
        precondition = precondition == null ? Precondition.NONE : precondition;
    }

    /** A PUT without a customer key. */
    public PutObjectRequest(String bucket, String key, long contentLength, ObjectAttributes attributes,
                            byte[] contentMd5, Precondition precondition, Supplier<Map<String, String>> checksums,
                            Bucket bucketRecord) {
        this(bucket, key, contentLength, attributes, contentMd5, precondition, checksums, bucketRecord, null);
    }

    public PutObjectRequest withCustomerKey(CustomerKey k) {
        return new PutObjectRequest(bucket, key, contentLength, attributes, contentMd5, precondition, checksums,
                bucketRecord, k);
    }

    public static PutObjectRequest of(String bucket, String key, long contentLength) {
        return new PutObjectRequest(bucket, key, contentLength, ObjectAttributes.EMPTY, null, Precondition.NONE, null,
                null);
    }

    public PutObjectRequest withAttributes(ObjectAttributes a) {
        return new PutObjectRequest(bucket, key, contentLength, a, contentMd5, precondition, checksums, bucketRecord,
                customerKey);
    }

    public PutObjectRequest withContentMd5(byte[] md5) {
        return new PutObjectRequest(bucket, key, contentLength, attributes, md5, precondition, checksums, bucketRecord,
                customerKey);
    }

    public PutObjectRequest withPrecondition(Precondition p) {
        return new PutObjectRequest(bucket, key, contentLength, attributes, contentMd5, p, checksums, bucketRecord,
                customerKey);
    }

    public PutObjectRequest withBucketRecord(Bucket b) {
        return new PutObjectRequest(bucket, key, contentLength, attributes, contentMd5, precondition, checksums, b,
                customerKey);
    }

    public PutObjectRequest withChecksums(Supplier<Map<String, String>> c) {
        return new PutObjectRequest(bucket, key, contentLength, attributes, contentMd5, precondition, c, bucketRecord,
                customerKey);
    }
}

package io.coffer.sdk.blob;

import java.io.IOException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Translates the AWS SDK's exceptions into an {@link S3BlobStore}'s: a missing object becomes a
 * {@link BlobNotFoundException}, everything else an {@link IOException} naming the request and the bucket.
 */
final class S3Failures {
    static final int NOT_FOUND = 404;
    private static final String NO_SUCH_BUCKET = "NoSuchBucket";

    private final String bucket;

    S3Failures(String bucket) {
        this.bucket = bucket;
    }

    /** A 404 about the object; a missing bucket is a failure of the store, not a missing blob. */
    static boolean isMissingObject(S3Exception e) {
        return e.statusCode() == NOT_FOUND && !isNoSuchBucket(e);
    }

    static BlobNotFoundException notFound(String name, Exception cause) {
        BlobNotFoundException e = new BlobNotFoundException(name);
        e.initCause(cause);
        return e;
    }

    IOException failure(String what, SdkException e) {
        return new IOException("S3 " + what + " in bucket " + bucket + " failed: " + e.getMessage(), e);
    }

    private static boolean isNoSuchBucket(S3Exception e) {
        return e instanceof NoSuchBucketException
                || (e.awsErrorDetails() != null && NO_SUCH_BUCKET.equals(e.awsErrorDetails().errorCode()));
    }
}

package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ObjectInfo;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The read preconditions (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since) evaluated in S3's order:
 * a true If-Match overrides a false If-Unmodified-Since; a false If-None-Match makes If-Modified-Since irrelevant;
 * 412 PreconditionFailed wins over 304 Not Modified.
 */
public final class Conditionals {
    private Conditionals() {
    }

    /** Throws PreconditionFailed (412) or NotModified (304) when the object does not satisfy the request. */
    public static void check(S3Request r, ObjectInfo info) {
        String ifMatch = r.header("if-match");
        String ifNoneMatch = r.header("if-none-match");
        Instant ifModifiedSince = ObjectHeaders.parseHttpDate(r.header("if-modified-since"));
        Instant ifUnmodifiedSince = ObjectHeaders.parseHttpDate(r.header("if-unmodified-since"));
        Instant modified = info.lastModified().truncatedTo(ChronoUnit.SECONDS);
        if (ifMatch != null) {
            if (!ETags.matches(ifMatch, info.etag())) {
                throw new S3Exception(S3ErrorCode.PRECONDITION_FAILED);
            }
        } else if (ifUnmodifiedSince != null && modified.isAfter(ifUnmodifiedSince)) {
            throw new S3Exception(S3ErrorCode.PRECONDITION_FAILED);
        }
        if (ifNoneMatch != null) {
            if (ETags.matches(ifNoneMatch, info.etag())) {
                throw notModified(info);
            }
        } else if (ifModifiedSince != null && !modified.isAfter(ifModifiedSince)) {
            throw notModified(info);
        }
    }

    private static S3Exception notModified(ObjectInfo info) {
        return new NotModifiedException(info);
    }

    /** 304: carries the object's ETag and Last-Modified, which S3 returns with it. */
    public static final class NotModifiedException extends S3Exception {
        private static final long serialVersionUID = 1L;
        private final transient ObjectInfo info;

        NotModifiedException(ObjectInfo info) {
            super(S3ErrorCode.NOT_MODIFIED);
            this.info = info;
        }

        public ObjectInfo info() {
            return info;
        }
    }
}

package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;

/**
 * S3's largest upload in one request: a PUT or one part of a multipart upload carries at most 5 GiB. Checked on the
 * declared length before {@code 100 Continue} is sent, and on the bytes read when no length was declared.
 */
public final class ObjectSizeLimit {
    public static final long MAX_UPLOAD_BYTES = 5L * 1024 * 1024 * 1024;

    private ObjectSizeLimit() {
    }

    /** EntityTooLarge when {@code length} (declared or read so far) is above {@link #MAX_UPLOAD_BYTES}. */
    public static void check(long length) {
        if (length > MAX_UPLOAD_BYTES) {
            throw new S3Exception(S3ErrorCode.ENTITY_TOO_LARGE, "Your proposed upload exceeds the maximum allowed"
                    + " size of " + MAX_UPLOAD_BYTES + " bytes.");
        }
    }
}

package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.Names;

/**
 * The sdk's bucket and key rules ({@link Names}), checked as a request arrives (before the engine reads anything) and
 * answered as the S3 error the engine's code maps to, with S3's message.
 */
public final class NameRules {
    private NameRules() {
    }

    /** Throws InvalidBucketName unless {@link Names#isValidBucket}. */
    public static void check(String name) {
        try {
            Names.checkBucket(name);
        } catch (CofferException e) {
            throw new S3Exception(S3ErrorCode.of(e.code()));
        }
    }

    /** Throws KeyTooLongError for keys over {@link Names#MAX_KEY_BYTES} UTF-8 bytes; null (no key) passes. */
    public static void checkKey(String key) {
        try {
            Names.checkKeyLength(key);
        } catch (CofferException e) {
            throw new S3Exception(S3ErrorCode.of(e.code()));
        }
    }
}

package io.coffer.sdk.digest;

import io.coffer.sdk.chunk.ChunkReader;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The digest of a body as a {@link ChunkReader} reads it: fed through the tap, finished once at the end. */
public interface BodyDigest extends ChunkReader.ReadTap {
    /** Bytes read so far. */
    long count();

    /** Waits for the digest of everything read. */
    byte[] finish() throws IOException;

    /** Gives the digest up without a result (the write failed). */
    void abandon();

    /** The JDK's MD5 (its intrinsic): the ETags' digest wherever the lanes do not take a body. */
    static MessageDigest jdkMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 unavailable", e);
        }
    }
}

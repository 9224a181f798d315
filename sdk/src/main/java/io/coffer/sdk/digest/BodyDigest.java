package io.coffer.sdk.digest;

import io.coffer.sdk.chunk.ChunkReader;
import java.io.IOException;

/** The digest of a body as a {@link ChunkReader} reads it: fed through the tap, finished once at the end. */
public interface BodyDigest extends ChunkReader.ReadTap {
    /** Bytes read so far. */
    long count();

    /** Waits for the digest of everything read. */
    byte[] finish() throws IOException;

    /** Gives the digest up without a result (the write failed). */
    void abandon();
}

package io.coffer.sdk.blob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes of a blob to be put: a known length and a source that can be opened more than once, so that a
 * failed upload can be retried.
 */
public interface BlobContent {

    long length();

    /** A fresh stream over all {@link #length()} bytes. */
    InputStream open() throws IOException;

    /**
     * The content as a buffer over memory it already occupies (no copy), or null when it is not in memory. Stores use
     * it to write without streaming through an intermediate buffer; they must not modify it.
     */
    default ByteBuffer inMemory() {
        return null;
    }

    static BlobContent of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }

    static BlobContent of(byte[] bytes, int offset, int length) {
        return new ArrayContent(bytes, offset, length);
    }

    static BlobContent of(Path file) throws IOException {
        long size = Files.size(file);
        return new BlobContent() {
            @Override public long length() { return size; }
            @Override public InputStream open() throws IOException { return Files.newInputStream(file); }
        };
    }
}

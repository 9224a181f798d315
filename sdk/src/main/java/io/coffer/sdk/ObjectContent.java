package io.coffer.sdk;

import java.io.IOException;
import java.io.InputStream;

/**
 * The answer to a GET: the object's description and a stream over the requested bytes, read lazily with bounded
 * memory. The caller closes it. A read that finds stored data damaged throws an {@link IOException} whose cause is a
 * {@link CofferException} with {@link ErrorCode#INTEGRITY_ERROR}; it never returns wrong bytes.
 *
 * @param range the bytes the stream yields; null when the whole object was asked for
 */
public record ObjectContent(ObjectInfo info, ByteRange.Resolved range, InputStream stream) implements AutoCloseable {

    public long contentLength() {
        return range == null ? info.size() : range.length();
    }

    @Override
    public void close() throws IOException {
        stream.close();
    }
}

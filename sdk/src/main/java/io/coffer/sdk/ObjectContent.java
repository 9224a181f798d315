package io.coffer.sdk;

import java.io.IOException;
import java.io.InputStream;

/**
 * The answer to a GET: the object's description and a stream over the requested bytes, read lazily with bounded
 * memory. The caller closes it. The first run of chunks (up to 4 MiB) is read and verified before the engine returns
 * it, so damage there makes {@code getObject} itself throw a {@link CofferException} with
 * {@link ErrorCode#INTEGRITY_ERROR}; a later read that finds stored data damaged throws an {@link IOException} whose
 * cause is such an exception. It never returns wrong bytes.
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

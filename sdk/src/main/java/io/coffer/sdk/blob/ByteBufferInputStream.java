package io.coffer.sdk.blob;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Reads a buffer's remaining bytes, without copying them out first: how a pack already in memory goes to the HTTP
 * client (a copy of a whole pack per upload cost an 8 MiB allocation and a cache-cold pass over it).
 */
final class ByteBufferInputStream extends InputStream {
    private final ByteBuffer buffer;

    /** Reads from a duplicate of {@code buffer}: the caller's position and limit are left alone. */
    ByteBufferInputStream(ByteBuffer buffer) {
        this.buffer = buffer.duplicate();
        this.buffer.mark();
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int n = Math.min(len, buffer.remaining());
        buffer.get(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int k = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + k);
        return k;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }

    // mark and reset as ByteArrayInputStream has them: the HTTP client wraps a stream without them in a buffering one
    @Override
    public boolean markSupported() {
        return true;
    }

    @Override
    public void mark(int readLimit) {
        buffer.mark();
    }

    @Override
    public void reset() {
        buffer.reset();
    }
}

package io.coffer.sdk.blob;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * {@link BlobContent#of(byte[], int, int)}: a range of an array. Outside this package only the read-only view of
 * {@link #inMemory()} is seen; the stores here may hand the array itself to a socket write ({@link #array()}), which
 * a read-only buffer does not expose, saving a copy per upload.
 */
final class ArrayContent implements BlobContent {
    private final byte[] bytes;
    private final int offset;
    private final int length;

    ArrayContent(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public InputStream open() {
        return new ByteArrayInputStream(bytes, offset, length);
    }

    @Override
    public ByteBuffer inMemory() {
        return ByteBuffer.wrap(bytes, offset, length).asReadOnlyBuffer();
    }

    /** The range as a buffer backed by the array ({@code hasArray()}); whoever gets it only reads it. */
    ByteBuffer array() {
        return ByteBuffer.wrap(bytes, offset, length);
    }
}

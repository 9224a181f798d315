package io.coffer.sdk.chunk;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One chunk produced by {@link ChunkReader}: a view of {@code length} bytes at {@code array[offset]}, which start at
 * byte {@code streamOffset} of the input stream.
 *
 * <p>The array is the reader's internal buffer, not a copy: the view is valid only until the next call to
 * {@link ChunkReader#next()}, and must not be written to. Use {@link #toByteArray()} to keep the bytes.
 *
 * @param array        the buffer holding the chunk
 * @param offset       index of the chunk's first byte in {@code array}
 * @param length       chunk length in bytes, at least 1
 * @param streamOffset position of the chunk's first byte in the input stream
 */
public record Chunk(byte[] array, int offset, int length, long streamOffset) {

    /** Checks that the view lies within the array and is non-empty. */
    public Chunk {
        if (length <= 0 || offset < 0 || offset > array.length - length || streamOffset < 0) {
            throw new IllegalArgumentException("bad chunk view: offset " + offset + ", length " + length
                    + ", array length " + array.length + ", stream offset " + streamOffset);
        }
    }

    /** Position just after the chunk's last byte in the input stream. */
    public long streamEnd() {
        return streamOffset + length;
    }

    /** A copy of the chunk's bytes, valid after the next {@link ChunkReader#next()}. */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(array, offset, offset + length);
    }

    /** A read-only buffer over the chunk's bytes (same lifetime as this view). */
    public ByteBuffer asByteBuffer() {
        return ByteBuffer.wrap(array, offset, length).slice().asReadOnlyBuffer();
    }

    @Override
    public String toString() {
        return "Chunk[streamOffset=" + streamOffset + ", length=" + length + "]";
    }
}

package io.coffer.por.checksum;

import io.coffer.por.code.Part;
import java.nio.ByteBuffer;

/**
 * Where a block lies on the server: index {@code index} of buffer U, of part X or Y of buffer C, or of part X or Y of
 * level {@code level} of the hierarchical log H. A sealed checksum is bound to its address (and, in C and H, to the
 * time the block was written), so the server cannot answer with another block's checksum.
 */
public record BlockAddress(Buffer buffer, int level, Part part, long index) {
    public enum Buffer { U, C, H }

    /** Bytes of {@link #toBytes()}. */
    public static final int BYTES = 1 + 4 + 1 + 8;

    public BlockAddress {
        if (buffer == null || part == null) {
            throw new IllegalArgumentException("buffer and part are required");
        }
        if (index < 0) {
            throw new IllegalArgumentException("negative index: " + index);
        }
        if (buffer == Buffer.H ? level < 0 : level != 0) {
            throw new IllegalArgumentException("levels belong to H only: " + buffer + " " + level);
        }
        if (buffer == Buffer.U && part != Part.X) {
            throw new IllegalArgumentException("U has no parts");
        }
    }

    public static BlockAddress u(long index) {
        return new BlockAddress(Buffer.U, 0, Part.X, index);
    }

    public static BlockAddress c(Part part, long index) {
        return new BlockAddress(Buffer.C, 0, part, index);
    }

    public static BlockAddress h(int level, Part part, long index) {
        return new BlockAddress(Buffer.H, level, part, index);
    }

    /** buffer ordinal (1 byte), level (4), part ordinal (1), index (8), big-endian. */
    public byte[] toBytes() {
        return ByteBuffer.allocate(BYTES).put((byte) buffer.ordinal()).putInt(level).put((byte) part.ordinal())
                .putLong(index).array();
    }
}

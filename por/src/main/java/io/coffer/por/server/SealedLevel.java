package io.coffer.por.server;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.Part;
import java.util.Arrays;

/**
 * The sealed checksums of one level of H (or of C): part X and part Y, one per code block, index for index. What the
 * client downloads to simulate a rebuild and uploads after it; opaque bytes to the server.
 */
public record SealedLevel(int level, byte[][] x, byte[][] y) {
    public SealedLevel {
        if (x.length != y.length) {
            throw new IllegalArgumentException("parts of different sizes: " + x.length + " and " + y.length);
        }
        x = copy(x);
        y = copy(y);
    }

    public byte[][] part(Part part) {
        return copy(part == Part.X ? x : y);
    }

    @Override
    public byte[][] x() {
        return copy(x);
    }

    @Override
    public byte[][] y() {
        return copy(y);
    }

    public int partSize() {
        return x.length;
    }

    /** Bytes on the wire: every sealed checksum. */
    public long wireBytes() {
        return 2L * x.length * ChecksumSealer.SEALED_BYTES;
    }

    /** Deep copies of sealed checksums (null stays null): what a record of them hands out and keeps. */
    static byte[][] copy(byte[][] sealed) {
        byte[][] out = new byte[sealed.length][];
        for (int i = 0; i < sealed.length; i++) {
            out[i] = sealed[i] == null ? null : Arrays.copyOf(sealed[i], sealed[i].length);
        }
        return out;
    }
}

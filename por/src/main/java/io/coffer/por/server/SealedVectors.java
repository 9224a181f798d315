package io.coffer.por.server;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.Part;
import java.util.Arrays;

/**
 * The sealed checksums of the vectors of H that one deamortised add reads (the inputs of its merge steps, which the
 * client downloads to simulate the add) or writes (its outputs, which the client uploads with the add), in the order
 * {@link io.coffer.por.code.DeamortizedSchedule} lists them: {@code x[i]} and {@code y[i]} for both parts of the i-th
 * vector. {@code count} is the add's number in its epoch (H's t after it). O(k - b) checksums, whatever the level.
 */
public record SealedVectors(int count, byte[][] x, byte[][] y) {
    public SealedVectors {
        if (x.length != y.length) {
            throw new IllegalArgumentException("parts of different sizes: " + x.length + " and " + y.length);
        }
        if (count < 1) {
            throw new IllegalArgumentException("adds are counted from 1: " + count);
        }
        x = copy(x);
        y = copy(y);
    }

    public int size() {
        return x.length;
    }

    /** The sealed checksum of part {@code part} of the i-th vector (a copy). */
    public byte[] get(Part part, int i) {
        byte[] s = (part == Part.X ? x : y)[i];
        return s == null ? null : s.clone();
    }

    @Override
    public byte[][] x() {
        return copy(x);
    }

    @Override
    public byte[][] y() {
        return copy(y);
    }

    /** Bytes on the wire: the count, the number of vectors and every sealed checksum. */
    public long wireBytes() {
        return 8 + 2L * x.length * ChecksumSealer.SEALED_BYTES;
    }

    private static byte[][] copy(byte[][] sealed) {
        byte[][] out = new byte[sealed.length][];
        for (int i = 0; i < sealed.length; i++) {
            out[i] = sealed[i] == null ? null : Arrays.copyOf(sealed[i], sealed[i].length);
        }
        return out;
    }
}

package io.coffer.por.server;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.Part;

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
        x = SealedLevel.copy(x);
        y = SealedLevel.copy(y);
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
        return SealedLevel.copy(x);
    }

    @Override
    public byte[][] y() {
        return SealedLevel.copy(y);
    }

    /** Bytes on the wire: the count, the number of vectors and every sealed checksum. */
    public long wireBytes() {
        return 8 + 2L * x.length * ChecksumSealer.SEALED_BYTES;
    }
}

package io.coffer.por.code;

import java.nio.ByteBuffer;

/**
 * Everything the hierarchical log must remember besides its vectors: the capacity exponent k, the number t of writes
 * added since the last C rebuild (0..n; bit l of t says whether level l is filled, because levels fill like a binary
 * counter), and the number of C rebuilds so far (the epoch). 16 bytes serialised ({@link #toBytes()}).
 */
public record LogState(int k, int t, long epoch) {
    public static final int SERIALIZED_BYTES = 16;

    public LogState {
        if (k < 0 || k > CodeParameters.MAX_K) {
            throw new IllegalArgumentException("k out of range: " + k);
        }
        if (t < 0 || t > 1 << k) {
            throw new IllegalArgumentException("t must be in [0, 2^" + k + "]: " + t);
        }
        if (epoch < 0) {
            throw new IllegalArgumentException("negative epoch: " + epoch);
        }
    }

    /** The state of a log with no writes before its first C rebuild. */
    public static LogState empty(int k) {
        return new LogState(k, 0, 0);
    }

    /** Whether level {@code level} (0..k) currently holds a code. */
    public boolean filled(int level) {
        if (level < 0 || level > k) {
            throw new IllegalArgumentException("level must be in [0, " + k + "]: " + level);
        }
        return (t >>> level & 1) != 0;
    }

    /** The epoch position (0..n-1) of the first write a filled level holds; its writes are start .. start + 2^l - 1. */
    public int start(int level) {
        if (!filled(level)) {
            throw new IllegalStateException("level " + level + " is empty");
        }
        return t & -(2 << level);
    }

    /** Whether all n writes of the epoch are in: C must be rebuilt before the next write. */
    public boolean cRebuildDue() {
        return t == 1 << k;
    }

    public byte[] toBytes() {
        return ByteBuffer.allocate(SERIALIZED_BYTES).putInt(k).putInt(t).putLong(epoch).array();
    }

    public static LogState fromBytes(byte[] bytes) {
        if (bytes.length != SERIALIZED_BYTES) {
            throw new IllegalArgumentException("a log state is " + SERIALIZED_BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new LogState(buffer.getInt(), buffer.getInt(), buffer.getLong());
    }
}

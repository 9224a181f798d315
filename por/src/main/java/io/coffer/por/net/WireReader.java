package io.coffer.por.net;

/**
 * Reads a payload field by field. Every read checks the bytes left first, and every count is checked against its
 * bound before anything is allocated, so a hostile frame gets a {@link MalformedFrameException}, never a large array.
 */
final class WireReader {
    private final byte[] data;
    private int pos;

    WireReader(byte[] data) {
        this.data = data;
    }

    int u8() {
        need(1);
        return data[pos++] & 0xff;
    }

    boolean flag() {
        int b = u8();
        if (b > 1) {
            throw new MalformedFrameException("a flag byte must be 0 or 1: " + b);
        }
        return b == 1;
    }

    int i32() {
        need(4);
        int v = (data[pos] & 0xff) << 24 | (data[pos + 1] & 0xff) << 16 | (data[pos + 2] & 0xff) << 8
                | data[pos + 3] & 0xff;
        pos += 4;
        return v;
    }

    long i64() {
        return (long) i32() << 32 | i32() & 0xffffffffL;
    }

    /** An int in [min, max]. */
    int bounded(int min, int max, String what) {
        int v = i32();
        if (v < min || v > max) {
            throw new MalformedFrameException(what + " " + v + " outside [" + min + ", " + max + "]");
        }
        return v;
    }

    byte[] bytes(int length) {
        need(length);
        byte[] out = new byte[length];
        System.arraycopy(data, pos, out, 0, length);
        pos += length;
        return out;
    }

    /** Fails unless {@code count} items of at least {@code minBytes} each can still follow. */
    void expect(long count, int minBytes, String what) {
        if (count * minBytes > data.length - pos) {
            throw new MalformedFrameException(count + " " + what + " cannot fit the " + (data.length - pos)
                    + " bytes left");
        }
    }

    void end() {
        if (pos != data.length) {
            throw new MalformedFrameException((data.length - pos) + " bytes after the last field");
        }
    }

    private void need(int n) {
        if (n < 0 || data.length - pos < n) {
            throw new MalformedFrameException("truncated: " + n + " bytes needed, " + (data.length - pos) + " left");
        }
    }
}

package io.coffer.por.net;

import java.util.Arrays;

/** Builds a payload field by field (big-endian), the mirror of {@link WireReader}. */
final class WireWriter {
    private byte[] buf;
    private int size;

    WireWriter(int expectedBytes) {
        buf = new byte[Math.max(16, expectedBytes)];
    }

    WireWriter u8(int v) {
        ensure(1);
        buf[size++] = (byte) v;
        return this;
    }

    WireWriter flag(boolean v) {
        return u8(v ? 1 : 0);
    }

    WireWriter i32(int v) {
        ensure(4);
        buf[size] = (byte) (v >>> 24);
        buf[size + 1] = (byte) (v >>> 16);
        buf[size + 2] = (byte) (v >>> 8);
        buf[size + 3] = (byte) v;
        size += 4;
        return this;
    }

    WireWriter i64(long v) {
        return i32((int) (v >>> 32)).i32((int) v);
    }

    WireWriter bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }

    byte[] toBytes() {
        return Arrays.copyOf(buf, size);
    }

    private void ensure(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }
}

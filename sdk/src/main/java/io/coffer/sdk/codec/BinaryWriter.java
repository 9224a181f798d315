package io.coffer.sdk.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes Coffer's binary records: unsigned LEB128 varints, big-endian fixed-width integers, length-prefixed byte
 * strings and UTF-8 strings.
 */
public final class BinaryWriter {
    private final ByteArrayOutputStream out;

    public BinaryWriter(int expectedSize) {
        out = new ByteArrayOutputStream(expectedSize);
    }

    public BinaryWriter uvarint(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative varint");
        }
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
        return this;
    }

    public BinaryWriter u8(int v) {
        out.write(v);
        return this;
    }

    public BinaryWriter u32(int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
        return this;
    }

    public BinaryWriter u64(long v) {
        u32((int) (v >>> 32));
        return u32((int) v);
    }

    /** Raw bytes with no length prefix (fixed-width fields such as ids). */
    public BinaryWriter raw(byte[] b) {
        out.write(b, 0, b.length);
        return this;
    }

    /** A varint length followed by the bytes. */
    public BinaryWriter bytes(byte[] b) {
        uvarint(b.length);
        return raw(b);
    }

    /** A UTF-8 string as {@link #bytes}; null is written as length 0 with a presence flag before it. */
    public BinaryWriter string(String s) {
        if (s == null) {
            return u8(0);
        }
        u8(1);
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    public BinaryWriter stringMap(Map<String, String> m) {
        uvarint(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            string(e.getKey());
            string(e.getValue());
        }
        return this;
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}

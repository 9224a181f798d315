package io.coffer.sdk.deflate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Test helper: gzip members assembled by hand, so that every header field and block kind can be chosen. */
final class Gzip {
    static final int FTEXT = 0x01;
    static final int FHCRC = 0x02;
    static final int FEXTRA = 0x04;
    static final int FNAME = 0x08;
    static final int FCOMMENT = 0x10;

    private Gzip() {
    }

    /** A header with MTIME, XFL and OS set, and the optional fields FLG names (FHCRC computed). */
    static byte[] header(int flags, byte[] extra, String name, String comment) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, (byte) flags, 0x78, 0x56, 0x34, 0x12, 2, 3});
        if ((flags & FEXTRA) != 0) {
            h.write(extra.length);
            h.write(extra.length >>> 8);
            h.writeBytes(extra);
        }
        if ((flags & FNAME) != 0) {
            h.writeBytes(name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            h.write(0);
        }
        if ((flags & FCOMMENT) != 0) {
            h.writeBytes(comment.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            h.write(0);
        }
        if ((flags & FHCRC) != 0) {
            CRC32 crc = new CRC32();
            crc.update(h.toByteArray());
            h.write((int) crc.getValue());
            h.write((int) crc.getValue() >>> 8);
        }
        return h.toByteArray();
    }

    static byte[] plainHeader() {
        return header(0, null, null, null);
    }

    /** Raw deflate of {@code data} by java.util.zip at {@code level}. */
    static byte[] rawDeflate(byte[] data, int level) {
        Deflater d = new Deflater(level, true);
        d.setInput(data);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    static byte[] trailer(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        JavaZipRoundTripTest.writeIntLe(t, (int) crc.getValue());
        JavaZipRoundTripTest.writeIntLe(t, data.length);
        return t.toByteArray();
    }

    static byte[] member(byte[] header, byte[] deflate, byte[] data) {
        return concat(header, deflate, trailer(data));
    }

    static byte[] member(byte[] data, int level) {
        return member(plainHeader(), rawDeflate(data, level), data);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Bits written least-significant first, for hand-made deflate streams; {@link #bytes} pads with zeros. */
    static final class Bits {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final BitOutput out = new BitOutput(bytes);

        Bits put(int value, int n) throws IOException {
            out.write(value, n);
            return this;
        }

        /** A symbol of the fixed literal/length code. */
        Bits fixedSymbol(int symbol) throws IOException {
            DeflateTables.fixedLiteralLength().encode(out, symbol);
            return this;
        }

        /** A distance code of the fixed code. */
        Bits fixedDistance(int code) throws IOException {
            DeflateTables.fixedDistance().encode(out, code);
            return this;
        }

        /** A symbol of {@code code}. */
        Bits symbol(HuffmanCode code, int symbol) throws IOException {
            code.encode(out, symbol);
            return this;
        }

        /** Pads to a byte boundary with {@code padding}'s bits. */
        Bits align(int padding) throws IOException {
            out.write(padding, out.bitsToByteBoundary());
            return this;
        }

        byte[] bytes() throws IOException {
            align(0);
            out.flush();
            return bytes.toByteArray();
        }
    }
}

package io.coffer.sdk.deflate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Reads one gzip member header (RFC 1952 §2.3) and keeps its bytes as they came: ID1 ID2 CM FLG MTIME XFL OS, then
 * FEXTRA, FNAME, FCOMMENT and FHCRC where FLG says. FTEXT, MTIME, XFL, OS and the header CRC are kept, not judged;
 * reserved flag bits and a method other than deflate are refused, as gzip refuses them.
 */
final class GzipHeader {
    static final int ID1 = 0x1F;
    static final int ID2 = 0x8B;
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int RESERVED = 0xE0;

    private GzipHeader() {
    }

    /** The header's bytes; {@code maxStringBytes} bounds FNAME and FCOMMENT each (FEXTRA is bounded by its u16). */
    static byte[] read(BitInput in, int maxStringBytes) throws IOException {
        ByteArrayOutputStream header = new ByteArrayOutputStream(32);
        int id1 = copy(in, header);
        int id2 = copy(in, header);
        if (id1 != ID1 || id2 != ID2) {
            throw new DeflateFormatException("not a gzip member (magic " + Integer.toHexString(id1 << 8 | id2) + ")");
        }
        int method = copy(in, header);
        if (method != 8) {
            throw new DeflateFormatException("gzip compression method " + method + " is not deflate");
        }
        int flags = copy(in, header);
        if ((flags & RESERVED) != 0) {
            throw new DeflateFormatException("gzip header with reserved flag bits set: " + Integer.toHexString(flags));
        }
        for (int i = 0; i < 6; i++) {
            copy(in, header); // MTIME, XFL, OS
        }
        if ((flags & FEXTRA) != 0) {
            int xlen = copy(in, header) | copy(in, header) << 8;
            for (int i = 0; i < xlen; i++) {
                copy(in, header);
            }
        }
        if ((flags & FNAME) != 0) {
            copyZeroTerminated(in, header, maxStringBytes, "FNAME");
        }
        if ((flags & FCOMMENT) != 0) {
            copyZeroTerminated(in, header, maxStringBytes, "FCOMMENT");
        }
        if ((flags & FHCRC) != 0) {
            copy(in, header);
            copy(in, header);
        }
        return header.toByteArray();
    }

    private static int copy(BitInput in, ByteArrayOutputStream header) throws IOException {
        int b = in.readByteOrFail("gzip header");
        header.write(b);
        return b;
    }

    private static void copyZeroTerminated(BitInput in, ByteArrayOutputStream header, int max, String field)
            throws IOException {
        for (int n = 0; ; n++) {
            if (n > max) {
                throw new DeflateFormatException("gzip " + field + " longer than " + max + " bytes");
            }
            if (copy(in, header) == 0) {
                return;
            }
        }
    }
}

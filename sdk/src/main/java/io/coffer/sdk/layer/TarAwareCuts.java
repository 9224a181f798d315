package io.coffer.sdk.layer;

import io.coffer.sdk.chunk.Chunker;

/**
 * Sub-chunk cuts for a layer's decompressed bytes that respect tar member boundaries: every 512-byte tar header is a
 * sub-chunk of its own, and each member's data (with its padding) is cut by the content-defined chunker without
 * crossing into the next header. Successive versions of a tarball rewrite every header (mtimes, pax times) while
 * most files stay equal; a plain 8 KiB cut would put a header in nearly every sub-chunk of a tree of small files, so
 * each changed mtime would cost a whole sub-chunk instead of one header. Once the bytes are not a tar header where one
 * is due (end-of-archive zeros, not a tar at all), the rest is cut by the chunker alone.
 *
 * <p>Called for consecutive pieces of one stream (the 512 KiB chunks, each from its first byte); headers are
 * 512-byte aligned and the chunks are multiples of 512 bytes, so a header never straddles two chunks. One stream per
 * instance; not thread-safe.
 */
public final class TarAwareCuts {
    static final int BLOCK = 512;
    private static final int SIZE_AT = 124;
    private static final int SIZE_LENGTH = 12;
    private static final int CHECKSUM_AT = 148;
    private static final int CHECKSUM_LENGTH = 8;
    private static final int TYPE_AT = 156;

    private final Chunker chunker;
    private long position;
    private long dataEnd;
    private boolean tar = true;

    public TarAwareCuts(Chunker chunker) {
        this.chunker = chunker;
    }

    /** The length of the next sub-chunk, which starts at {@code data[offset]}; {@code length} bytes are there. */
    public int nextCut(byte[] data, int offset, int length) {
        int cut;
        if (tar && position == dataEnd) {
            long size = length >= BLOCK ? memberDataLength(data, offset) : -1;
            if (size >= 0) {
                dataEnd = position + BLOCK + size;
                cut = BLOCK;
            } else {
                tar = false;
                cut = chunker.nextCut(data, offset, length);
            }
        } else if (tar) {
            cut = chunker.nextCut(data, offset, (int) Math.min(length, dataEnd - position));
        } else {
            cut = chunker.nextCut(data, offset, length);
        }
        position += cut;
        return cut;
    }

    /**
     * The bytes of data (padded to 512) that follow the tar header at {@code data[at]}, or -1 if it is not a header
     * (checksum wrong, size unreadable): POSIX ustar, GNU and pax headers alike (a pax or GNU long-name header's
     * data is its records; links, devices, directories and FIFOs have none).
     */
    static long memberDataLength(byte[] data, int at) {
        long stored = octal(data, at + CHECKSUM_AT, CHECKSUM_LENGTH);
        if (stored < 0) {
            return -1;
        }
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            boolean inChecksum = i >= CHECKSUM_AT && i < CHECKSUM_AT + CHECKSUM_LENGTH;
            byte b = inChecksum ? (byte) ' ' : data[at + i];
            unsigned += b & 0xff;
            signed += b;
        }
        if (stored != unsigned && stored != signed) {
            return -1;
        }
        char type = (char) (data[at + TYPE_AT] & 0xff);
        if (type >= '1' && type <= '6') {
            return 0;
        }
        long size = (data[at + SIZE_AT] & 0x80) != 0 ? base256(data, at + SIZE_AT, SIZE_LENGTH)
                : octal(data, at + SIZE_AT, SIZE_LENGTH);
        if (size < 0 || size > Long.MAX_VALUE / 2) {
            return -1;
        }
        return (size + BLOCK - 1) / BLOCK * BLOCK;
    }

    /** An octal field: leading spaces or NULs, digits, then a space, a NUL or the field's end; -1 if malformed. */
    private static long octal(byte[] data, int at, int length) {
        int i = 0;
        while (i < length && (data[at + i] == ' ' || data[at + i] == 0)) {
            i++;
        }
        long v = 0;
        int digits = 0;
        for (; i < length; i++) {
            byte b = data[at + i];
            if (b == ' ' || b == 0) {
                break;
            }
            if (b < '0' || b > '7' || ++digits > 21) {
                return -1;
            }
            v = v << 3 | (b - '0');
        }
        return digits == 0 ? -1 : v;
    }

    /** GNU's base-256 size (high bit of the first byte set): the remaining bits big-endian; -1 if it is too large. */
    private static long base256(byte[] data, int at, int length) {
        long v = data[at] & 0x3f;
        for (int i = 1; i < length; i++) {
            if ((v >>> 55) != 0) {
                return -1;
            }
            v = v << 8 | (data[at + i] & 0xff);
        }
        return v;
    }
}

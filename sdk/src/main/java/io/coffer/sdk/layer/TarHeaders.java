package io.coffer.sdk.layer;

/**
 * Parsing of 512-byte tar headers, as far as {@link TarSplit} needs it: whether a block is a header (its checksum
 * holds) and how many bytes of data follow it.
 */
final class TarHeaders {
    static final int BLOCK = 512;
    private static final int SIZE_AT = 124;
    private static final int SIZE_LENGTH = 12;
    private static final int CHECKSUM_AT = 148;
    private static final int CHECKSUM_LENGTH = 8;
    private static final int TYPE_AT = 156;

    private TarHeaders() {
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
        char type = type(data, at);
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

    /** The type flag of the header at {@code data[at]}. */
    static char type(byte[] data, int at) {
        return (char) (data[at + TYPE_AT] & 0xff);
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

package io.coffer.sdk.deflate;

/** RFC 1951's constant tables: length and distance codes with their extra bits, the fixed code, the code-length order. */
final class DeflateTables {
    static final int END_OF_BLOCK = 256;
    static final int LITERAL_LENGTH_SYMBOLS = 286;
    static final int DISTANCE_SYMBOLS = 30;

    static final int[] LENGTH_BASE = {
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static final int[] LENGTH_EXTRA = {
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static final int[] DISTANCE_BASE = {
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577};
    static final int[] DISTANCE_EXTRA = {
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
    static final int[] CODE_LENGTH_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

    /** Length 3..258 to its length code index (0..28): the canonical choice, 258 as code 285. */
    private static final byte[] LENGTH_CODE = new byte[259];
    /** Distance 1..32768 to its distance code (0..29). */
    private static final byte[] DISTANCE_CODE = new byte[32769];

    static {
        for (int code = 0; code < LENGTH_BASE.length; code++) {
            int end = code + 1 < LENGTH_BASE.length ? LENGTH_BASE[code + 1] : 259;
            for (int len = LENGTH_BASE[code]; len < end && len <= 258; len++) {
                LENGTH_CODE[len] = (byte) code;
            }
        }
        LENGTH_CODE[258] = 28;
        for (int code = 0; code < DISTANCE_BASE.length; code++) {
            int end = DISTANCE_BASE[code] + (1 << DISTANCE_EXTRA[code]);
            for (int d = DISTANCE_BASE[code]; d < end; d++) {
                DISTANCE_CODE[d] = (byte) code;
            }
        }
    }

    private DeflateTables() {
    }

    static int lengthCode(int length) {
        return LENGTH_CODE[length];
    }

    static int distanceCode(int distance) {
        return DISTANCE_CODE[distance];
    }

    static HuffmanCode fixedLiteralLength() {
        return FixedCodes.LITERAL_LENGTH;
    }

    static HuffmanCode fixedDistance() {
        return FixedCodes.DISTANCE;
    }

    /** The fixed literal/length code lengths (RFC 1951 §3.2.6), 288 entries. */
    static int[] fixedLiteralLengthLengths() {
        int[] lengths = new int[288];
        for (int i = 0; i < 288; i++) {
            lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
        }
        return lengths;
    }

    /** Built once, on first use. */
    private static final class FixedCodes {
        static final HuffmanCode LITERAL_LENGTH;
        static final HuffmanCode DISTANCE;

        static {
            try {
                LITERAL_LENGTH = HuffmanCode.of(fixedLiteralLengthLengths(), 288, HuffmanCode.Kind.LITERAL_LENGTH);
                int[] d = new int[32];
                java.util.Arrays.fill(d, 5);
                DISTANCE = HuffmanCode.of(d, 32, HuffmanCode.Kind.DISTANCE);
            } catch (DeflateFormatException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}

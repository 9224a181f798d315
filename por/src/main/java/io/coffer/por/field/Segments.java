package io.coffer.por.field;

/**
 * Cuts a block of bytes into Z_p elements of {@link Zp#SEGMENT_BITS} bits each (little-endian bit order: bit j of the
 * block is bit j mod 30 of element j / 30) and puts them back. Every segment is below 2^30 < p, so the map is
 * injective; the last element is zero-padded.
 */
public final class Segments {
    private Segments() {}

    /** The number of elements a block of {@code byteLength} bytes takes. */
    public static int count(int byteLength) {
        return (int) ((byteLength * 8L + Zp.SEGMENT_BITS - 1) / Zp.SEGMENT_BITS);
    }

    public static int[] fromBytes(byte[] block, int offset, int length) {
        int[] out = new int[count(length)];
        long acc = 0;
        int bits = 0;
        int e = 0;
        for (int i = 0; i < length; i++) {
            acc |= (long) (block[offset + i] & 0xff) << bits;
            bits += 8;
            if (bits >= Zp.SEGMENT_BITS) {
                out[e++] = (int) (acc & ((1 << Zp.SEGMENT_BITS) - 1));
                acc >>>= Zp.SEGMENT_BITS;
                bits -= Zp.SEGMENT_BITS;
            }
        }
        if (bits > 0) {
            out[e] = (int) acc;
        }
        return out;
    }

    /**
     * The {@code byteLength} bytes that {@code elements} encode. Fails if an element is not a 30-bit segment or the
     * padding is not zero: decoded data that is not what {@link #fromBytes} produced is damage, not a block.
     */
    public static byte[] toBytes(int[] elements, int byteLength) {
        if (elements.length != count(byteLength)) {
            throw new IllegalArgumentException("expected " + count(byteLength) + " elements, got " + elements.length);
        }
        byte[] out = new byte[byteLength];
        long acc = 0;
        int bits = 0;
        int o = 0;
        for (int element : elements) {
            if (element >>> Zp.SEGMENT_BITS != 0) {
                throw new IllegalArgumentException("element out of segment range: " + element);
            }
            acc |= (long) element << bits;
            bits += Zp.SEGMENT_BITS;
            while (bits >= 8 && o < byteLength) {
                out[o++] = (byte) acc;
                acc >>>= 8;
                bits -= 8;
            }
        }
        if (acc != 0) {
            throw new IllegalArgumentException("non-zero padding after the last byte");
        }
        return out;
    }
}

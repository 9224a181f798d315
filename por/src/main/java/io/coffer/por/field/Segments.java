package io.coffer.por.field;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Cuts a block of bytes into Z_p elements of {@link Zp#SEGMENT_BITS} bits each (little-endian bit order: bit j of the
 * block is bit j mod 30 of element j / 30) and puts them back. Every segment is below 2^30 < p, so the map is
 * injective; the last element is zero-padded.
 */
public final class Segments {
    /** 15 bytes are 120 bits, exactly 4 elements: the unit {@link #fromBytes} converts with two 8-byte loads. */
    private static final int GROUP_BYTES = 15;
    private static final long MASK = (1L << Zp.SEGMENT_BITS) - 1;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private Segments() {}

    /** The number of elements a block of {@code byteLength} bytes takes. */
    public static int count(int byteLength) {
        return (int) ((byteLength * 8L + Zp.SEGMENT_BITS - 1) / Zp.SEGMENT_BITS);
    }

    public static int[] fromBytes(byte[] block, int offset, int length) {
        int[] out = new int[count(length)];
        fromBytes(block, offset, length, out);
        return out;
    }

    /**
     * Writes the {@link #count}({@code length}) elements of the bytes into {@code out} from index 0 (elements after
     * them are left alone, so a caller can put a tag there). Whole groups of 15 bytes go 4 elements at a time from two
     * little-endian 8-byte loads (a byte at a time was 130 microseconds per 64 KiB block, the largest part of a
     * verified read; docs/BENCHMARKS.md, "The gateway with PoR on and off"); the tail a byte at a time.
     */
    public static void fromBytes(byte[] block, int offset, int length, int[] out) {
        if (out.length < count(length)) {
            throw new IllegalArgumentException(length + " bytes need " + count(length) + " elements, the array has "
                    + out.length);
        }
        Objects.checkFromIndexSize(offset, length, block.length);
        int groups = length / GROUP_BYTES;
        int e = 0;
        for (int g = 0, i = offset; g < groups; g++, i += GROUP_BYTES, e += 4) {
            long low = (long) LONG_LE.get(block, i); // bits 0..63 of the group
            long high = (long) LONG_LE.get(block, i + 7); // bits 56..119
            out[e] = (int) (low & MASK);
            out[e + 1] = (int) (low >>> 30 & MASK);
            out[e + 2] = (int) (high >>> 4 & MASK);
            out[e + 3] = (int) (high >>> 34 & MASK);
        }
        long acc = 0;
        int bits = 0;
        for (int i = groups * GROUP_BYTES; i < length; i++) {
            acc |= (long) (block[offset + i] & 0xff) << bits;
            bits += 8;
            if (bits >= Zp.SEGMENT_BITS) {
                out[e++] = (int) (acc & MASK);
                acc >>>= Zp.SEGMENT_BITS;
                bits -= Zp.SEGMENT_BITS;
            }
        }
        if (bits > 0) {
            out[e] = (int) acc;
        }
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

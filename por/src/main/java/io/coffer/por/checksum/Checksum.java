package io.coffer.por.checksum;

import io.coffer.por.field.Zp;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A homomorphic checksum sigma = M * B: {@link #ROWS} elements of Z_p. Immutable; the linear operations return new
 * checksums, so sigma(a1*B1 + a2*B2) can be checked against a1*sigma(B1) + a2*sigma(B2).
 */
public final class Checksum {
    /** rho: 5 rows of 30 bits = 150 bits >= 128 (section 5.3 wants rho * log2 p = O(lambda)). */
    public static final int ROWS = 5;
    /** Bytes of {@link #toBytes()}: one big-endian int per row. */
    public static final int BYTES = ROWS * Integer.BYTES;

    private static final Checksum ZERO = new Checksum(new int[ROWS]);

    private final int[] rows;

    private Checksum(int[] rows) {
        this.rows = rows;
    }

    public static Checksum zero() {
        return ZERO;
    }

    /** The checksum with these rows; each must be an element of Z_p. */
    public static Checksum of(int[] rows) {
        if (rows.length != ROWS) {
            throw new IllegalArgumentException("a checksum has " + ROWS + " rows, got " + rows.length);
        }
        for (int r : rows) {
            if (r < 0 || r >= Zp.P) {
                throw new IllegalArgumentException("checksum row out of Z_p: " + r);
            }
        }
        return new Checksum(rows.clone());
    }

    public static Checksum fromBytes(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a checksum is " + BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int[] rows = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            rows[i] = in.getInt();
        }
        return of(rows);
    }

    public byte[] toBytes() {
        ByteBuffer out = ByteBuffer.allocate(BYTES);
        for (int r : rows) {
            out.putInt(r);
        }
        return out.array();
    }

    /** A copy of the rows, e.g. to run the erasure code over checksums as over vectors of width {@link #ROWS}. */
    public int[] rows() {
        return rows.clone();
    }

    public Checksum plus(Checksum other) {
        int[] r = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            r[i] = Zp.add(rows[i], other.rows[i]);
        }
        return new Checksum(r);
    }

    public Checksum times(int scalar) {
        int[] r = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            r[i] = Zp.mul(rows[i], scalar);
        }
        return new Checksum(r);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Checksum c && Arrays.equals(rows, c.rows);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(rows);
    }

    @Override
    public String toString() {
        return "Checksum" + Arrays.toString(rows);
    }
}

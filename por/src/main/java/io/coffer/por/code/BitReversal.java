package io.coffer.por.code;

/** The paper's partial bit-reversal psi_c: reverses the {@code bits} least significant bits of a value. */
public final class BitReversal {
    private BitReversal() {}

    /** psi_bits(value): the low {@code bits} bits of {@code value} reversed; {@code value} must be below 2^bits. */
    public static int reverse(int value, int bits) {
        if (bits < 0 || bits > 30 || value < 0 || value >>> bits != 0) {
            throw new IllegalArgumentException("cannot reverse " + value + " in " + bits + " bits");
        }
        return bits == 0 ? 0 : Integer.reverse(value) >>> (32 - bits);
    }
}

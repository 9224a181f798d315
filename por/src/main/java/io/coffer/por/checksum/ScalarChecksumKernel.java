package io.coffer.por.checksum;

import io.coffer.por.field.Zp;

/**
 * The checksum row as a scalar loop: what runs without the Vector API. Reduction is deferred to the end of the row:
 * the products (each below p^2 < 2^62) are added four at a time, a sum below 2^64 read unsigned, and summed as its low
 * and high 32 bits, which cannot overflow a long below 2^31 columns; one multiplication per element, one reduction per
 * row (docs/BENCHMARKS.md, porvec).
 */
final class ScalarChecksumKernel implements ChecksumKernel {
    static final ScalarChecksumKernel INSTANCE = new ScalarChecksumKernel();

    /** 2^32 mod p: folds the high halves of the lazily summed products back at the end of a row. */
    private static final long TWO_32_MOD_P = (1L << 32) % Zp.P;

    private ScalarChecksumKernel() {}

    @Override
    public int dot(int[] m, int base, int[] block) {
        long low = 0;
        long high = 0;
        int c = 0;
        for (int end = block.length - 3; c < end; c += 4) {
            long four = (long) block[c] * m[base + c] + (long) block[c + 1] * m[base + c + 1]
                    + (long) block[c + 2] * m[base + c + 2] + (long) block[c + 3] * m[base + c + 3];
            low += four & 0xFFFF_FFFFL;
            high += four >>> 32;
        }
        return reduce(tail(m, base, block, c, low, high));
    }

    /**
     * The row's sums with columns {@code from ..} of the block added one product at a time: {low, high}. Shared with
     * the vector kernel, whose lanes leave a tail.
     */
    static long[] tail(int[] m, int base, int[] block, int from, long low, long high) {
        for (int c = from; c < block.length; c++) {
            long product = (long) block[c] * m[base + c];
            low += product & 0xFFFF_FFFFL;
            high += product >>> 32;
        }
        return new long[] {low, high};
    }

    /** (high * 2^32 + low) mod p, for the non-negative sums {low, high} of a row. */
    static int reduce(long[] sums) {
        return (int) ((sums[1] % Zp.P * TWO_32_MOD_P + sums[0] % Zp.P) % Zp.P);
    }

    @Override
    public String name() {
        return "scalar";
    }
}

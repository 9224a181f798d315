package io.coffer.por.field;

/**
 * The Z_p loops the code spends its time in, over vectors of canonical elements (ints in [0, p)). Implementations give
 * bit-identical, canonical results and accept outputs that alias inputs at the same index; {@link ZpKernels} picks the
 * one that runs here.
 */
interface ZpKernel {
    /** plus = a + tw * b and minus = a - tw * b, element-wise; each output may be either input. */
    void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus);

    /** out = v * c, element-wise; out may be v. */
    void scale(int[] v, int c, int[] out);

    /** acc += v * c, element-wise. */
    void addScaled(int[] acc, int[] v, int c);

    /** What the kernel runs on, for logs and benchmarks ("scalar", "vector-512"). */
    String name();
}

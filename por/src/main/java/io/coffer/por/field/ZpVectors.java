package io.coffer.por.field;

/**
 * Element-wise Z_p operations on vectors (int arrays of elements in [0, p)), the inner loops of the PoR code.
 *
 * <p>The butterfly, scale and addScaled run on the kernel {@link ZpKernels} chose for this JVM (the Vector API's or
 * the scalar loops, bit-identical; multiplication by a constant by Shoup's method either way, {@link ScalarZpKernel}).
 * Results are canonical elements. Every output may alias an input at the same index, so butterflies can run in place.
 */
public final class ZpVectors {
    private static final int P = Zp.P;
    private static final ZpKernel KERNEL = ZpKernels.chosen();

    private ZpVectors() {}

    /** out = v * c, element-wise. */
    public static void scale(int[] v, int c, int[] out) {
        KERNEL.scale(v, c, out);
    }

    /** out = a + b, element-wise. */
    public static void add(int[] a, int[] b, int[] out) {
        for (int i = 0; i < a.length; i++) {
            out[i] = ScalarZpKernel.reduceOnce(a[i] - P + b[i]);
        }
    }

    /** out = a - b, element-wise. */
    public static void sub(int[] a, int[] b, int[] out) {
        for (int i = 0; i < a.length; i++) {
            out[i] = ScalarZpKernel.reduceOnce(a[i] - b[i]);
        }
    }

    /** acc += v * c, element-wise. */
    public static void addScaled(int[] acc, int[] v, int c) {
        KERNEL.addScaled(acc, v, c);
    }

    /**
     * The FFT butterfly the code is made of: plus = a + tw * b and minus = a - tw * b, element-wise. Each output may be
     * either input.
     */
    public static void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus) {
        KERNEL.butterfly(a, b, tw, plus, minus);
    }

    /** The kernel that runs the butterflies here: "scalar" or "vector-BITS". */
    public static String kernelName() {
        return KERNEL.name();
    }
}

package io.coffer.por.field;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Run in a child JVM by {@link ZpKernelsTest}: prints the butterfly kernel that JVM chose and a result it computed. */
public final class ZpKernelProbe {
    private ZpKernelProbe() {}

    public static void main(String[] args) {
        System.out.println(ZpVectors.kernelName());
        System.out.println(result());
    }

    /** A butterfly, a scale and an addScaled of 4 KiB blocks' width under fixed inputs, through {@link ZpVectors}. */
    static String result() {
        SplittableRandom random = new SplittableRandom(29);
        int[] a = random.ints(1094, 0, Zp.P).toArray();
        int[] b = random.ints(1094, 0, Zp.P).toArray();
        int[] plus = new int[a.length];
        int[] minus = new int[a.length];
        ZpVectors.butterfly(a, b, 123_456_789, plus, minus);
        ZpVectors.scale(plus, 987_654_321, plus);
        ZpVectors.addScaled(minus, plus, Zp.P - 1);
        return Arrays.hashCode(plus) + " " + Arrays.hashCode(minus);
    }
}

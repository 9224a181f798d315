package io.coffer.por.field;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZpVectorsTest {

    @Test
    void vectorOperationsAgreeWithScalarArithmeticIncludingTheEdges() {
        SplittableRandom random = new SplittableRandom(12);
        int width = 64;
        int[] edges = {0, 1, 2, Zp.P - 1, Zp.P - 2, Zp.P / 2, Zp.P / 2 + 1, (1 << 30) - 1, 1 << 30};
        for (int round = 0; round < 2000; round++) {
            int[] a = new int[width];
            int[] b = new int[width];
            for (int i = 0; i < width; i++) {
                a[i] = round % 3 == 0 ? edges[random.nextInt(edges.length)] : random.nextInt(Zp.P);
                b[i] = round % 5 == 0 ? edges[random.nextInt(edges.length)] : random.nextInt(Zp.P);
            }
            int c = round < edges.length ? edges[round] : random.nextInt(Zp.P);
            int[] plus = new int[width];
            int[] minus = new int[width];
            ZpVectors.butterfly(a, b, c, plus, minus);
            int[] scaled = new int[width];
            ZpVectors.scale(a, c, scaled);
            int[] sum = new int[width];
            ZpVectors.add(a, b, sum);
            int[] difference = new int[width];
            ZpVectors.sub(a, b, difference);
            int[] acc = a.clone();
            ZpVectors.addScaled(acc, b, c);
            for (int i = 0; i < width; i++) {
                int t = Zp.mul(b[i], c);
                assertThat(plus[i]).isEqualTo(Zp.add(a[i], t));
                assertThat(minus[i]).isEqualTo(Zp.sub(a[i], t));
                assertThat(scaled[i]).isEqualTo(Zp.mul(a[i], c));
                assertThat(sum[i]).isEqualTo(Zp.add(a[i], b[i]));
                assertThat(difference[i]).isEqualTo(Zp.sub(a[i], b[i]));
                assertThat(acc[i]).isEqualTo(Zp.add(a[i], t));
            }
            int[] swappedA = a.clone();
            int[] swappedB = b.clone();
            ZpVectors.butterfly(swappedA, swappedB, c, swappedB, swappedA); // outputs on the other inputs
            assertThat(swappedB).isEqualTo(plus);
            assertThat(swappedA).isEqualTo(minus);
            ZpVectors.butterfly(a, b, c, a, b); // in place
            assertThat(a).isEqualTo(plus);
            assertThat(b).isEqualTo(minus);
        }
    }

    /**
     * The int-only kernels (vectorised by C2) against the former long-product Shoup loops, bit for bit: widths that
     * leave every remainder after the vector loops, twiddles and elements at the edges of Z_p and of the 16-bit
     * halves the quotient is taken from.
     */
    @Test
    void intOnlyKernelsMatchTheLongProductShoupLoopsBitForBit() {
        SplittableRandom random = new SplittableRandom(19);
        int[] edges = {0, 1, 2, 0xFFFF, 0x10000, 0x10001, 0x7FFF_FFFF % Zp.P, Zp.P - 1, Zp.P - 2, Zp.P / 2,
            (1 << 30) - 1, 1 << 30, Zp.P - 1 - 0xFFFF, 0x7000_FFFF, 0x77FF_0000};
        int[] widths = {1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 63, 65, 127, 1094, 17478};
        for (int round = 0; round < 600; round++) {
            int width = widths[round % widths.length];
            int[] a = new int[width];
            int[] b = new int[width];
            for (int i = 0; i < width; i++) {
                a[i] = round % 3 == 0 ? edges[random.nextInt(edges.length)] : random.nextInt(Zp.P);
                b[i] = round % 4 == 0 ? edges[random.nextInt(edges.length)] : random.nextInt(Zp.P);
            }
            int tw = round < 2 * edges.length ? edges[round % edges.length] : random.nextInt(Zp.P);
            int[] plus = new int[width];
            int[] minus = new int[width];
            ZpVectors.butterfly(a, b, tw, plus, minus);
            int[] scaled = new int[width];
            ZpVectors.scale(b, tw, scaled);
            int[] acc = a.clone();
            ZpVectors.addScaled(acc, b, tw);
            long tws = ((long) tw << 32) / Zp.P;
            for (int i = 0; i < width; i++) {
                int t = longShoup(b[i], tw, tws);
                assertThat(plus[i]).isEqualTo(longReduce(a[i] - Zp.P + t));
                assertThat(minus[i]).isEqualTo(longReduce(a[i] - t));
                assertThat(scaled[i]).isEqualTo(t);
                assertThat(acc[i]).isEqualTo(longReduce(a[i] - Zp.P + t));
            }
        }
    }

    /** The former kernel's product: the quotient from a 64-bit product. */
    private static int longShoup(int a, int w, long wShoup) {
        int q = (int) ((a * wShoup) >>> 32);
        return longReduce(a * w - q * Zp.P - Zp.P);
    }

    private static int longReduce(int v) {
        return v + (v >> 31 & Zp.P);
    }
}

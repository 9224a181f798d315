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
            ZpVectors.butterfly(a, b, c, a, b); // in place
            assertThat(a).isEqualTo(plus);
            assertThat(b).isEqualTo(minus);
        }
    }
}

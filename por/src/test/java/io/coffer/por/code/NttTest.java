package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.field.Zp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NttTest {

    @Test
    void forwardEvaluatesAtThePowersOfTheRootAndInverseUndoesIt() {
        SplittableRandom random = new SplittableRandom(41);
        for (int bits = 0; bits <= 7; bits++) {
            int size = 1 << bits;
            int root = Zp.rootOfUnity(size);
            int[] coefficients = CodeVectors.random(random, size);
            int[] values = coefficients.clone();
            Ntt.forward(values, root);
            for (int e = 0; e < size; e++) {
                assertThat(values[e]).isEqualTo(evaluate(coefficients, Zp.pow(root, e)));
            }
            int[] expected = values.clone();
            Ntt.inverse(values, root);
            assertThat(values).isEqualTo(coefficients);
            int[][] vectors = new int[size][];
            for (int s = 0; s < size; s++) {
                vectors[s] = new int[] {coefficients[s], Zp.mul(coefficients[s], 3)};
            }
            Ntt.forward(vectors, root);
            for (int e = 0; e < size; e++) {
                assertThat(vectors[e]).containsExactly(expected[e], Zp.mul(expected[e], 3));
            }
        }
        assertThatThrownBy(() -> Ntt.forward(new int[6], 1)).isInstanceOf(IllegalArgumentException.class);
    }

    static int evaluate(int[] coefficients, int z) {
        int acc = 0;
        for (int i = coefficients.length - 1; i >= 0; i--) {
            acc = Zp.add(Zp.mul(acc, z), coefficients[i]);
        }
        return acc;
    }
}

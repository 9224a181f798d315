package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.field.Zp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PolynomialsTest {

    @Test
    void productsMatchSchoolbookAndFromRootsVanishExactlyAtItsRoots() {
        SplittableRandom random = new SplittableRandom(42);
        int[] f = CodeVectors.random(random, 150);
        int[] g = CodeVectors.random(random, 97);
        int[] product = Polynomials.multiply(f, g); // both at least 64 long: the transform path
        assertThat(product).hasSize(246);
        for (int trial = 0; trial < 20; trial++) {
            int z = random.nextInt(Zp.P);
            assertThat(NttTest.evaluate(product, z)).isEqualTo(Zp.mul(NttTest.evaluate(f, z), NttTest.evaluate(g, z)));
        }
        int[] roots = CodeVectors.random(random, 300);
        int[] locator = Polynomials.fromRoots(roots, 0, roots.length);
        assertThat(locator).hasSize(301);
        assertThat(locator[300]).isEqualTo(1);
        for (int r : roots) {
            assertThat(NttTest.evaluate(locator, r)).isZero();
        }
        assertThat(NttTest.evaluate(locator, 12345)).isNotZero(); // 300 random roots miss this point with overwhelming odds
    }
}

package io.coffer.por.field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZpTest {
    private static final BigInteger BP = BigInteger.valueOf(Zp.P);

    @Test
    void pIsThePrimeItClaimsToBe() {
        assertThat(BP.isProbablePrime(64)).isTrue();
        assertThat(Zp.P).isEqualTo(15 * (1 << 27) + 1);
        assertThat(Integer.numberOfLeadingZeros(Zp.P)).isEqualTo(32 - 31); // 2^30 < p < 2^31
    }

    @Test
    void theGeneratorGeneratesAndRootsHaveExactOrder() {
        // 31 generates Z_p*: its order is p - 1, i.e. g^((p-1)/q) != 1 for each prime q | p - 1 = 2^27 * 3 * 5
        for (int q : new int[] {2, 3, 5}) {
            assertThat(Zp.pow(Zp.GENERATOR, (Zp.P - 1L) / q)).isNotEqualTo(1);
        }
        for (int k = 1; k <= Zp.TWO_ADICITY; k++) {
            int w = Zp.rootOfUnity(1L << k);
            assertThat(Zp.pow(w, 1L << k)).isEqualTo(1);
            assertThat(Zp.pow(w, 1L << (k - 1))).isEqualTo(Zp.P - 1);
        }
        assertThatThrownBy(() -> Zp.rootOfUnity(1L << 28)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Zp.rootOfUnity(12)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void operationsAgreeWithBigIntegerArithmetic() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            int a = random.nextInt(Zp.P);
            int b = random.nextInt(Zp.P);
            BigInteger ba = BigInteger.valueOf(a);
            BigInteger bb = BigInteger.valueOf(b);
            assertThat(Zp.add(a, b)).isEqualTo(ba.add(bb).mod(BP).intValue());
            assertThat(Zp.sub(a, b)).isEqualTo(ba.subtract(bb).mod(BP).intValue());
            assertThat(Zp.mul(a, b)).isEqualTo(ba.multiply(bb).mod(BP).intValue());
            assertThat(Zp.neg(a)).isEqualTo(ba.negate().mod(BP).intValue());
            if (a != 0) {
                assertThat(Zp.mul(a, Zp.inv(a))).isEqualTo(1);
            }
        }
        assertThat(Zp.add(Zp.P - 1, Zp.P - 1)).isEqualTo(Zp.P - 2);
        assertThat(Zp.reduce(-1L)).isEqualTo(new BigInteger("18446744073709551615").mod(BP).intValue());
    }

    @Test
    void segmentsRoundTripEveryLength() {
        SplittableRandom random = new SplittableRandom(11);
        for (int length = 0; length <= 200; length++) {
            byte[] block = new byte[length];
            random.nextBytes(block);
            int[] elements = Segments.fromBytes(block, 0, length);
            assertThat(elements).hasSize(Segments.count(length));
            assertThat(java.util.Arrays.stream(elements).allMatch(e -> e >= 0 && e < (1 << Zp.SEGMENT_BITS))).isTrue();
            assertThat(Segments.toBytes(elements, length)).isEqualTo(block);
        }
    }

    @Test
    void elementsThatNoBlockProducesAreRefused() {
        int[] elements = Segments.fromBytes(new byte[8], 0, 8);
        elements[0] = 1 << Zp.SEGMENT_BITS;
        assertThatThrownBy(() -> Segments.toBytes(elements, 8)).isInstanceOf(IllegalArgumentException.class);
        int[] padded = Segments.fromBytes(new byte[8], 0, 8);
        padded[padded.length - 1] = 1 << 10; // a bit past the 64th
        assertThatThrownBy(() -> Segments.toBytes(padded, 8)).isInstanceOf(IllegalArgumentException.class);
    }
}

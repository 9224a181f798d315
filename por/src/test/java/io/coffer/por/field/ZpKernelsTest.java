package io.coffer.por.field;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The butterfly kernels agree with Z_p arithmetic and with each other element for element (this suite runs with the
 * Vector API module, so both run here), whatever the length, the twiddle and the aliasing of outputs and inputs; and
 * the choice: the vector kernel only where asked for ({@code -Dcoffer.por.vector.butterflies=on}) and the module is
 * there, the scalar loops otherwise, and always under {@code -Dcoffer.por.vector=off}.
 */
class ZpKernelsTest {
    private static final ZpKernel[] KERNELS = {ScalarZpKernel.INSTANCE, VectorZpKernel.INSTANCE};
    /** Elements and twiddles at the edges of Z_p and of the 16-bit halves Shoup's quotient is taken from. */
    private static final int[] EDGES = {0, 1, 2, 0xFFFF, 0x10000, 0x10001, Zp.P - 1, Zp.P - 2, Zp.P / 2,
        (1 << 30) - 1, 1 << 30, Zp.P - 1 - 0xFFFF, 0x7000_FFFF, 0x77FF_0000};

    private static int[] lengths() {
        List<Integer> lengths = new ArrayList<>();
        for (int length = 0; length <= 70; length++) {
            lengths.add(length); // every remainder after 8- and 16-lane vectors, and vectors shorter than one
        }
        lengths.addAll(List.of(1094, 17_478)); // a 4 KiB and a 64 KiB block with their tags
        return lengths.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] elements(SplittableRandom random, int length, boolean edges) {
        int[] v = new int[length];
        for (int i = 0; i < length; i++) {
            v[i] = edges && random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)] : random.nextInt(Zp.P);
        }
        return v;
    }

    /** One case of a test: two input vectors and a constant. */
    private interface Case {
        void check(int[] a, int[] b, int constant);
    }

    /**
     * Three cases per length: random vectors, with edge elements in some, and the constant an edge (0, 1, p - 1 ...)
     * in the first rounds of every forty, else random.
     */
    private static void forEachCase(long seed, Case test) {
        SplittableRandom random = new SplittableRandom(seed);
        int round = 0;
        for (int length : lengths()) {
            for (int repeat = 0; repeat < 3; repeat++, round++) {
                int[] a = elements(random, length, round % 2 == 0);
                int[] b = elements(random, length, round % 3 == 0);
                int constant = round % 40 < EDGES.length ? EDGES[round % 40] : random.nextInt(Zp.P);
                test.check(a, b, constant);
            }
        }
    }

    @Test
    void bothKernelsGiveTheCanonicalButterflyForEveryLengthTwiddleAndAliasing() {
        forEachCase(19, (a, b, tw) -> {
            int length = a.length;
            int[] plus = new int[length];
            int[] minus = new int[length];
            for (int i = 0; i < length; i++) {
                int t = Zp.mul(b[i], tw);
                plus[i] = Zp.add(a[i], t);
                minus[i] = Zp.sub(a[i], t);
            }
            for (ZpKernel kernel : KERNELS) {
                String as = kernel.name() + ", length " + length + ", twiddle " + tw;
                int[] outPlus = new int[length];
                int[] outMinus = new int[length];
                kernel.butterfly(a, b, tw, outPlus, outMinus);
                assertThat(outPlus).as(as).isEqualTo(plus);
                assertThat(outMinus).as(as).isEqualTo(minus);
                int[] x = a.clone();
                int[] y = b.clone();
                kernel.butterfly(x, y, tw, x, y);
                assertThat(x).as("in place, %s", as).isEqualTo(plus);
                assertThat(y).as("in place, %s", as).isEqualTo(minus);
                x = a.clone();
                y = b.clone();
                kernel.butterfly(x, y, tw, y, x);
                assertThat(y).as("swapped, %s", as).isEqualTo(plus);
                assertThat(x).as("swapped, %s", as).isEqualTo(minus);
            }
        });
    }

    @Test
    void bothKernelsScaleAndAddScaledCanonicallyInPlaceAndOut() {
        forEachCase(23, (v, acc, c) -> {
            int length = v.length;
            int[] scaled = new int[length];
            int[] accumulated = new int[length];
            for (int i = 0; i < length; i++) {
                scaled[i] = Zp.mul(v[i], c);
                accumulated[i] = Zp.add(acc[i], scaled[i]);
            }
            for (ZpKernel kernel : KERNELS) {
                String as = kernel.name() + ", length " + length + ", constant " + c;
                int[] out = new int[length];
                kernel.scale(v, c, out);
                assertThat(out).as(as).isEqualTo(scaled);
                int[] inPlace = v.clone();
                kernel.scale(inPlace, c, inPlace);
                assertThat(inPlace).as("in place, %s", as).isEqualTo(scaled);
                int[] sum = acc.clone();
                kernel.addScaled(sum, v, c);
                assertThat(sum).as(as).isEqualTo(accumulated);
            }
        });
    }

    @Test
    void theLargestElementsEverywhereStayCanonicalInBothKernels() {
        for (int length : new int[] {16, 1094}) {
            int[] top = new int[length];
            Arrays.fill(top, Zp.P - 1);
            for (ZpKernel kernel : KERNELS) {
                for (int tw : new int[] {1, Zp.P - 1}) {
                    int[] x = top.clone();
                    int[] y = top.clone();
                    kernel.butterfly(x, y, tw, x, y);
                    int t = Zp.mul(Zp.P - 1, tw);
                    assertThat(x).as(kernel.name()).containsOnly(Zp.add(Zp.P - 1, t));
                    assertThat(y).as(kernel.name()).containsOnly(Zp.sub(Zp.P - 1, t));
                }
            }
        }
    }

    @Test
    void aJvmWithoutTheVectorModuleRunsTheScalarKernelWithTheSameResults() throws Exception {
        List<String> out = probe(List.of());
        assertThat(out.get(0)).isEqualTo("scalar");
        assertThat(out.get(1)).isEqualTo(ZpKernelProbe.result());
    }

    @Test
    void theScalarKernelCanBeForcedWithTheModulePresent() throws Exception {
        List<String> out = probe(List.of("--add-modules", VectorSupport.MODULE, "-Dcoffer.por.vector=off"));
        assertThat(out.get(0)).isEqualTo("scalar");
        assertThat(out.get(1)).isEqualTo(ZpKernelProbe.result());
    }

    @Test
    void withTheModuleTheScalarKernelRunsUnlessTheVectorButterfliesAreAskedFor() throws Exception {
        List<String> out = probe(List.of("--add-modules", VectorSupport.MODULE));
        assertThat(out.get(0)).isEqualTo("scalar");
        assertThat(out.get(1)).isEqualTo(ZpKernelProbe.result());
    }

    @Test
    void askedForTheVectorKernelRunsWhereVectorsHaveAtLeast256BitsWithTheSameResults() throws Exception {
        List<String> out = probe(List.of("--add-modules", VectorSupport.MODULE, "-D" + ZpKernels.PROPERTY + "=on"));
        String expected = VectorZpKernel.preferredBits() >= 256 ? "vector-" + VectorZpKernel.preferredBits() : "scalar";
        assertThat(out.get(0)).isEqualTo(expected);
        assertThat(out.get(1)).isEqualTo(ZpKernelProbe.result());
    }

    @Test
    void theScalarKernelIsForcedEvenWhenTheVectorButterfliesAreAskedFor() throws Exception {
        List<String> out = probe(List.of("--add-modules", VectorSupport.MODULE, "-D" + ZpKernels.PROPERTY + "=on",
                "-Dcoffer.por.vector=off"));
        assertThat(out.get(0)).isEqualTo("scalar");
    }

    /** The lines {@link ZpKernelProbe} prints in a child JVM started with {@code options}. */
    private static List<String> probe(List<String> options) throws IOException, InterruptedException {
        return ChildJvm.lines(ZpKernelProbe.class, options);
    }
}

package io.coffer.por.checksum;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The checksum row on the Vector API (incubating in JDK 17; docs/DECISIONS.md, "Vector kernels for PoR"): the scalar
 * kernel's exact sums, one long lane per column residue, four products summed per lane before the low and high halves
 * are split off, lanes added at the end. C2 turns the lane products into vpmullq where the JVM uses AVX-512 (2.8 times
 * the scalar loop's speed here), and into a slow emulation where it does not, which is why {@link ChecksumKernels}
 * only picks this kernel where it can run natively. Loaded only once the module is known to be there: referencing
 * this class without it fails.
 */
final class VectorChecksumKernel implements ChecksumKernel {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    /**
     * Ints of the same shape as the longs, of which only the low half is widened (the loads overlap): with half-width
     * int vectors here, the butterflies' full-width ones ({@code VectorZpKernel}) ran at a third of their speed in the
     * same JVM, C2 no longer intrinsifying their loads and stores once both int shapes had run; widening the high
     * half as well ({@code convertShape} part 1) made a checksum 35 % slower.
     */
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, LONGS.vectorShape());
    private static final int LANES = LONGS.length();
    private static final VectorOperators.Conversion<Integer, Long> WIDEN = VectorOperators.I2L;

    static final VectorChecksumKernel INSTANCE = new VectorChecksumKernel();

    private VectorChecksumKernel() {}

    /** The width of the vectors the JVM prefers here (256 on AVX2 and on AVX-512 by default, less elsewhere). */
    static int preferredBits() {
        return LONGS.vectorBitSize();
    }

    @Override
    public int dot(int[] m, int base, int[] block) {
        LongVector low = LongVector.zero(LONGS);
        LongVector high = LongVector.zero(LONGS);
        int c = 0;
        // each load reads INTS.length() = 2 * LANES ints and widens LANES of them, so the last stays in the arrays
        for (int end = block.length - 5 * LANES; c <= end; c += 4 * LANES) {
            // no helper methods for the widening: C2 may compile one on its own first, then not inline it, and box
            LongVector p0 = ((LongVector) IntVector.fromArray(INTS, block, c).convertShape(WIDEN, LONGS, 0))
                    .mul((LongVector) IntVector.fromArray(INTS, m, base + c).convertShape(WIDEN, LONGS, 0));
            int c1 = c + LANES;
            LongVector p1 = ((LongVector) IntVector.fromArray(INTS, block, c1).convertShape(WIDEN, LONGS, 0))
                    .mul((LongVector) IntVector.fromArray(INTS, m, base + c1).convertShape(WIDEN, LONGS, 0));
            int c2 = c + 2 * LANES;
            LongVector p2 = ((LongVector) IntVector.fromArray(INTS, block, c2).convertShape(WIDEN, LONGS, 0))
                    .mul((LongVector) IntVector.fromArray(INTS, m, base + c2).convertShape(WIDEN, LONGS, 0));
            int c3 = c + 3 * LANES;
            LongVector p3 = ((LongVector) IntVector.fromArray(INTS, block, c3).convertShape(WIDEN, LONGS, 0))
                    .mul((LongVector) IntVector.fromArray(INTS, m, base + c3).convertShape(WIDEN, LONGS, 0));
            LongVector four = p0.add(p1).add(p2).add(p3); // < 4 p^2 < 2^64, read unsigned
            low = low.add(four.and(0xFFFF_FFFFL));
            high = high.add(four.lanewise(VectorOperators.LSHR, 32));
        }
        return ScalarChecksumKernel.reduce(ScalarChecksumKernel.tail(m, base, block, c,
                low.reduceLanes(VectorOperators.ADD), high.reduceLanes(VectorOperators.ADD)));
    }

    @Override
    public String name() {
        return "vector-" + preferredBits();
    }
}

package io.coffer.por.checksum;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The checksum row on the Vector API (incubating in JDK 17; docs/DECISIONS.md, "Vector kernels for PoR"): the scalar
 * kernel's exact sums, each long lane taking two adjacent columns, four products summed per lane before the low and
 * high halves are split off, lanes added at the end. C2 turns the lane products into vpmullq where the JVM uses
 * AVX-512 (2.8 times the scalar loop's speed here), and into a slow emulation where it does not, which is why
 * {@link ChecksumKernels} only picks this kernel where it can run natively. Loaded only once the module is known to be there: referencing
 * this class without it fails.
 */
final class VectorChecksumKernel implements ChecksumKernel {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    /**
     * Ints of the same shape as the longs, read as longs of two elements each ({@code reinterpretAsLongs}), whose low
     * and high halves are multiplied apart. Not a widening conversion: JDK 17's C2 converts ints to longs only between
     * vectors of the same lane count, i.e. from half-width int vectors, and with those in a JVM the butterflies'
     * full-width int vectors ({@code VectorZpKernel}) fell back to the Vector API's Java code (C2's type profiles of
     * the shared Vector API code saw both shapes): a PoR store's profile spent half its samples there.
     */
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, LONGS.vectorShape());
    private static final int LANES = LONGS.length();
    private static final long LOW = 0xFFFF_FFFFL;

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
        for (int end = block.length - 4 * LANES; c <= end; c += 4 * LANES) {
            // no helper methods: C2 may compile one on its own first, then not inline it, and box the vectors
            LongVector a0 = IntVector.fromArray(INTS, block, c).reinterpretAsLongs();
            LongVector w0 = IntVector.fromArray(INTS, m, base + c).reinterpretAsLongs();
            LongVector a1 = IntVector.fromArray(INTS, block, c + 2 * LANES).reinterpretAsLongs();
            LongVector w1 = IntVector.fromArray(INTS, m, base + c + 2 * LANES).reinterpretAsLongs();
            LongVector four = a0.and(LOW).mul(w0.and(LOW)) // elements are below 2^31: each half reads as itself
                    .add(a0.lanewise(VectorOperators.LSHR, 32).mul(w0.lanewise(VectorOperators.LSHR, 32)))
                    .add(a1.and(LOW).mul(w1.and(LOW)))
                    .add(a1.lanewise(VectorOperators.LSHR, 32).mul(w1.lanewise(VectorOperators.LSHR, 32))); // < 2^64
            low = low.add(four.and(LOW));
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

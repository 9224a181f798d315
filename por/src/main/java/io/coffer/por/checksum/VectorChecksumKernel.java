package io.coffer.por.checksum;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
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
    /** As many int lanes as long lanes: a block's ints widen into one long vector. */
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class,
            VectorShape.forBitSize(LONGS.vectorBitSize() / 2));
    private static final int LANES = INTS.length();

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
            LongVector four = product(m, base, block, c)
                    .add(product(m, base, block, c + LANES))
                    .add(product(m, base, block, c + 2 * LANES))
                    .add(product(m, base, block, c + 3 * LANES)); // < 4 p^2 < 2^64, read unsigned
            low = low.add(four.and(0xFFFF_FFFFL));
            high = high.add(four.lanewise(VectorOperators.LSHR, 32));
        }
        return ScalarChecksumKernel.reduce(ScalarChecksumKernel.tail(m, base, block, c,
                low.reduceLanes(VectorOperators.ADD), high.reduceLanes(VectorOperators.ADD)));
    }

    /** block[c ..] times m[base + c ..], one 64-bit product per lane. */
    private static LongVector product(int[] m, int base, int[] block, int c) {
        LongVector a = (LongVector) IntVector.fromArray(INTS, block, c).convertShape(VectorOperators.I2L, LONGS, 0);
        LongVector w = (LongVector) IntVector.fromArray(INTS, m, base + c).convertShape(VectorOperators.I2L, LONGS, 0);
        return a.mul(w);
    }

    @Override
    public String name() {
        return "vector-" + preferredBits();
    }
}

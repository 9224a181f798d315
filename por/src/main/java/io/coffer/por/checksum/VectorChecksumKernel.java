package io.coffer.por.checksum;

import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The checksum row on the Vector API (incubating in JDK 17; docs/DECISIONS.md, "Vector kernels for PoR"): the scalar
 * kernel's exact sums, each long lane taking two adjacent columns, four products summed per lane before the low and
 * high halves are split off, lanes added at the end. C2 turns the lane products into vpmullq where the JVM uses
 * AVX-512 (2.8 times the scalar loop's speed here), and into a slow emulation where it does not, which is why
 * {@link ChecksumKernels} only picks this kernel where it can run natively. {@link #dotSegments} reads a block's
 * segments from its bytes in the same loop. Loaded only once the module is known to be there: referencing this class
 * without it fails.
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
    private static final long SEGMENT = (1L << Zp.SEGMENT_BITS) - 1;
    /**
     * Bytes of one step of {@link #dotSegments}: a pair of segments per long lane, 60 bits each, so 7.5 bytes per
     * lane; the lane count is even, so a step starts on a whole 15-byte group of {@link Segments}.
     */
    private static final int STEP_BYTES = LANES * 2 * Zp.SEGMENT_BITS / Byte.SIZE;
    /** Lane p's pair starts at bit 60p of a step, 4p bits below the 8 bytes at 8p: those are shifted up by 4p ... */
    private static final LongVector PAIR_SHIFT = LongVector.zero(LONGS).addIndex(4);
    /**
     * ... as a product with 2^(4p), the multiplication the rows use anyway: a shift by a vector of counts there was
     * left as a call by JDK 17's C2 (docs/DECISIONS.md, "Vector kernels for PoR") ...
     */
    private static final LongVector PAIR_UP = LongVector.broadcast(LONGS, 1L).lanewise(VectorOperators.LSHL,
            PAIR_SHIFT);
    /** ... and the 4p bits below them come from the top of the 8 bytes before ({@link #FROM_BELOW}: none in lane 0). */
    private static final LongVector BELOW_DOWN = LongVector.broadcast(LONGS, 64).sub(PAIR_SHIFT);
    private static final LongVector FROM_BELOW = LongVector.broadcast(LONGS, -1L)
            .blend(0L, LONGS.indexInRange(0, 1));

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

    /**
     * The five rows read the segments from the bytes as they multiply ({@link #vectorSums}); the first step (whose
     * bytes below lie before the block) and the last partial ones go through {@link Segments#fromBytes} and the scalar
     * sums, outside the vector loop's method so that its compiled graph stays small.
     */
    @Override
    public void dotSegments(int[] m, int width, int offset, byte[] bytes, int[] rows) {
        if (rows.length != 5 || Checksum.ROWS != 5) {
            throw new IllegalArgumentException("the kernel's loop is written for 5 rows, got " + rows.length);
        }
        int head = Math.min(STEP_BYTES, bytes.length);
        int[] headSegments = Segments.fromBytes(bytes, 0, head);
        long[] sums = new long[10]; // low and high of each row
        int end = vectorSums(m, width, offset + headSegments.length, bytes, head, sums);
        int[] tail = Segments.fromBytes(bytes, end, bytes.length - end);
        int tailColumn = offset + Segments.count(end);
        for (int r = 0; r < 5; r++) {
            long[] withHead = ScalarChecksumKernel.tail(m, r * width + offset, headSegments, 0, sums[2 * r],
                    sums[2 * r + 1]);
            rows[r] = ScalarChecksumKernel.reduce(
                    ScalarChecksumKernel.tail(m, r * width + tailColumn, tail, 0, withHead[0], withHead[1]));
        }
    }

    /**
     * Adds to {@code sums} the five rows' products of the segments from byte {@code from} (a whole step) on, as far
     * as whole vector steps go, and returns the byte they end at. Each step loads the 8 bytes at 8p and the 8 before
     * them per lane p, so lane p holds the 60 bits of segments 2p and 2p + 1 (shifts and masks, no shuffle), which
     * multiply against M's columns as {@link #dot} does with its even and odd ones; the bytes are read once for all
     * five rows (a verified read's check half the CPU of the segments converted into an array first: docs/BENCHMARKS.md,
     * porbytes).
     */
    private static int vectorSums(int[] m, int width, int column, byte[] bytes, int from, long[] sums) {
        int b0 = column;
        int b1 = width + column;
        int b2 = 2 * width + column;
        int b3 = 3 * width + column;
        int b4 = 4 * width + column;
        LongVector l0 = LongVector.zero(LONGS);
        LongVector h0 = l0;
        LongVector l1 = l0;
        LongVector h1 = l0;
        LongVector l2 = l0;
        LongVector h2 = l0;
        LongVector l3 = l0;
        LongVector h3 = l0;
        LongVector l4 = l0;
        LongVector h4 = l0;
        int i = from;
        for (int c = 0; i + STEP_BYTES + LONGS.vectorByteSize() <= bytes.length; i += 2 * STEP_BYTES, c += 4 * LANES) {
            LongVector v0 = LongVector.fromByteArray(LONGS, bytes, i, ByteOrder.LITTLE_ENDIAN)
                    .mul(PAIR_UP)
                    .or(LongVector.fromByteArray(LONGS, bytes, i - 8, ByteOrder.LITTLE_ENDIAN)
                            .lanewise(VectorOperators.LSHR, BELOW_DOWN).and(FROM_BELOW));
            LongVector v1 = LongVector.fromByteArray(LONGS, bytes, i + STEP_BYTES, ByteOrder.LITTLE_ENDIAN)
                    .mul(PAIR_UP)
                    .or(LongVector.fromByteArray(LONGS, bytes, i + STEP_BYTES - 8, ByteOrder.LITTLE_ENDIAN)
                            .lanewise(VectorOperators.LSHR, BELOW_DOWN).and(FROM_BELOW));
            LongVector e0 = v0.and(SEGMENT); // segment c + 2p of the step
            LongVector o0 = v0.lanewise(VectorOperators.LSHR, Zp.SEGMENT_BITS).and(SEGMENT); // c + 2p + 1
            LongVector e1 = v1.and(SEGMENT);
            LongVector o1 = v1.lanewise(VectorOperators.LSHR, Zp.SEGMENT_BITS).and(SEGMENT);
            // five rows written out, no helper methods: C2 keeps every vector in a register (see dot)
            LongVector w = IntVector.fromArray(INTS, m, b0 + c).reinterpretAsLongs();
            LongVector x = IntVector.fromArray(INTS, m, b0 + c + 2 * LANES).reinterpretAsLongs();
            LongVector four = e0.mul(w.and(LOW)).add(o0.mul(w.lanewise(VectorOperators.LSHR, 32)))
                    .add(e1.mul(x.and(LOW))).add(o1.mul(x.lanewise(VectorOperators.LSHR, 32)));
            l0 = l0.add(four.and(LOW));
            h0 = h0.add(four.lanewise(VectorOperators.LSHR, 32));
            w = IntVector.fromArray(INTS, m, b1 + c).reinterpretAsLongs();
            x = IntVector.fromArray(INTS, m, b1 + c + 2 * LANES).reinterpretAsLongs();
            four = e0.mul(w.and(LOW)).add(o0.mul(w.lanewise(VectorOperators.LSHR, 32)))
                    .add(e1.mul(x.and(LOW))).add(o1.mul(x.lanewise(VectorOperators.LSHR, 32)));
            l1 = l1.add(four.and(LOW));
            h1 = h1.add(four.lanewise(VectorOperators.LSHR, 32));
            w = IntVector.fromArray(INTS, m, b2 + c).reinterpretAsLongs();
            x = IntVector.fromArray(INTS, m, b2 + c + 2 * LANES).reinterpretAsLongs();
            four = e0.mul(w.and(LOW)).add(o0.mul(w.lanewise(VectorOperators.LSHR, 32)))
                    .add(e1.mul(x.and(LOW))).add(o1.mul(x.lanewise(VectorOperators.LSHR, 32)));
            l2 = l2.add(four.and(LOW));
            h2 = h2.add(four.lanewise(VectorOperators.LSHR, 32));
            w = IntVector.fromArray(INTS, m, b3 + c).reinterpretAsLongs();
            x = IntVector.fromArray(INTS, m, b3 + c + 2 * LANES).reinterpretAsLongs();
            four = e0.mul(w.and(LOW)).add(o0.mul(w.lanewise(VectorOperators.LSHR, 32)))
                    .add(e1.mul(x.and(LOW))).add(o1.mul(x.lanewise(VectorOperators.LSHR, 32)));
            l3 = l3.add(four.and(LOW));
            h3 = h3.add(four.lanewise(VectorOperators.LSHR, 32));
            w = IntVector.fromArray(INTS, m, b4 + c).reinterpretAsLongs();
            x = IntVector.fromArray(INTS, m, b4 + c + 2 * LANES).reinterpretAsLongs();
            four = e0.mul(w.and(LOW)).add(o0.mul(w.lanewise(VectorOperators.LSHR, 32)))
                    .add(e1.mul(x.and(LOW))).add(o1.mul(x.lanewise(VectorOperators.LSHR, 32)));
            l4 = l4.add(four.and(LOW));
            h4 = h4.add(four.lanewise(VectorOperators.LSHR, 32));
        }
        // each accumulator reduced where it is: gathered in an array, JDK 17's C2 boxed them in the loop too
        sums[0] += l0.reduceLanes(VectorOperators.ADD);
        sums[1] += h0.reduceLanes(VectorOperators.ADD);
        sums[2] += l1.reduceLanes(VectorOperators.ADD);
        sums[3] += h1.reduceLanes(VectorOperators.ADD);
        sums[4] += l2.reduceLanes(VectorOperators.ADD);
        sums[5] += h2.reduceLanes(VectorOperators.ADD);
        sums[6] += l3.reduceLanes(VectorOperators.ADD);
        sums[7] += h3.reduceLanes(VectorOperators.ADD);
        sums[8] += l4.reduceLanes(VectorOperators.ADD);
        sums[9] += h4.reduceLanes(VectorOperators.ADD);
        return i;
    }

    @Override
    public boolean readsSegmentsFromBytes() {
        return true;
    }

    @Override
    public String name() {
        return "vector-" + preferredBits();
    }
}

package io.coffer.por.field;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Z_p loops on the Vector API (incubating in JDK 17; docs/DECISIONS.md, "Vector kernels for PoR"), with the scalar
 * kernel's arithmetic lane by lane: Shoup's quotient from 16-bit halves in int lanes (native products under AVX2 and
 * AVX-512 alike), so the results are the scalar kernel's, bit for bit. What C2 would not do on its own: the butterfly
 * out of place in one pass (read a and b, write plus and minus), where the scalar kernel copies the inputs into the
 * outputs first. Every lane block is loaded before it is stored, so outputs may alias inputs at the same index.
 * Loaded only once the module is known to be there: referencing this class without it fails.
 */
final class VectorZpKernel implements ZpKernel {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int P = Zp.P;

    static final VectorZpKernel INSTANCE = new VectorZpKernel();

    private VectorZpKernel() {}

    /** The width of the vectors the JVM prefers here (512 with AVX-512 in use, 256 with AVX2, less elsewhere). */
    static int preferredBits() {
        return INTS.vectorBitSize();
    }

    @Override
    public void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus) {
        int tws = ScalarZpKernel.shoupFactor(tw);
        int high = tws >>> 16;
        int low = tws & 0xFFFF;
        // a loop per method keeps each compilation small: the Vector API inlines deep trees, and C2 stops inlining
        // past a node count (NodeCountInliningCutoff, seen with both butterfly loops in one method)
        int i = tw == 1 ? butterflyByOne(a, b, plus, minus) : butterflyByTwiddle(a, b, tw, high, low, plus, minus);
        for (; i < a.length; i++) {
            int u = a[i];
            int t = ScalarZpKernel.mulShoup(b[i], tw, high, low);
            plus[i] = ScalarZpKernel.reduceOnce(u - P + t);
            minus[i] = ScalarZpKernel.reduceOnce(u - t);
        }
    }

    /** The butterfly with twiddle 1 (the first of every stage of a rebuild: no product) over whole vectors. */
    private static int butterflyByOne(int[] a, int[] b, int[] plus, int[] minus) {
        int upper = INTS.loopBound(a.length);
        int i = 0;
        for (; i < upper; i += INTS.length()) {
            IntVector u = IntVector.fromArray(INTS, a, i);
            IntVector t = IntVector.fromArray(INTS, b, i);
            IntVector sum = u.sub(P).add(t);
            IntVector difference = u.sub(t);
            sum.add(sum.lanewise(VectorOperators.ASHR, 31).and(P)).intoArray(plus, i);
            difference.add(difference.lanewise(VectorOperators.ASHR, 31).and(P)).intoArray(minus, i);
        }
        return i;
    }

    /**
     * The butterfly over whole vectors; returns where the scalar tail starts. Shoup's product and the reductions (v + p
     * where v < 0) are written out here and in {@link #products} rather than called: C2 compiled such a helper on its
     * own first (called from C1's code), then refused to inline the result ("already compiled into a big method"), and
     * every vector crossing the call was boxed: a third of the speed. One loop for both, choosing what to store by a
     * mode, ran CRebuild at under half the speed: hence the two copies.
     */
    private static int butterflyByTwiddle(int[] a, int[] b, int tw, int high, int low, int[] plus, int[] minus) {
        int upper = INTS.loopBound(a.length);
        int i = 0;
        for (; i < upper; i += INTS.length()) {
            IntVector v = IntVector.fromArray(INTS, b, i);
            IntVector vHigh = v.lanewise(VectorOperators.LSHR, 16);
            IntVector vLow = v.and(0xFFFF);
            IntVector lowHigh = vLow.mul(high);
            IntVector highLow = vHigh.mul(low);
            IntVector middle = vLow.mul(low).lanewise(VectorOperators.LSHR, 16).add(lowHigh.and(0xFFFF))
                    .add(highLow.and(0xFFFF));
            IntVector quotient = vHigh.mul(high).add(lowHigh.lanewise(VectorOperators.LSHR, 16))
                    .add(highLow.lanewise(VectorOperators.LSHR, 16)).add(middle.lanewise(VectorOperators.LSHR, 16));
            IntVector product = v.mul(tw).sub(quotient.mul(P)).sub(P);
            IntVector t = product.add(product.lanewise(VectorOperators.ASHR, 31).and(P));
            IntVector u = IntVector.fromArray(INTS, a, i);
            IntVector sum = u.sub(P).add(t);
            IntVector difference = u.sub(t);
            sum.add(sum.lanewise(VectorOperators.ASHR, 31).and(P)).intoArray(plus, i);
            difference.add(difference.lanewise(VectorOperators.ASHR, 31).and(P)).intoArray(minus, i);
        }
        return i;
    }

    @Override
    public void scale(int[] v, int c, int[] out) {
        int cs = ScalarZpKernel.shoupFactor(c);
        int i = products(v, c, cs >>> 16, cs & 0xFFFF, null, out);
        ScalarZpKernel.scaleFrom(i, v, c, cs >>> 16, cs & 0xFFFF, out);
    }

    @Override
    public void addScaled(int[] acc, int[] v, int c) {
        int cs = ScalarZpKernel.shoupFactor(c);
        int i = products(v, c, cs >>> 16, cs & 0xFFFF, acc, acc);
        ScalarZpKernel.addScaledFrom(i, acc, v, c, cs >>> 16, cs & 0xFFFF);
    }

    /**
     * out = v * c, plus acc where acc is not null (Shoup's factor of c in 16-bit halves, {@link
     * ScalarZpKernel#shoupQuotient}), over whole vectors; returns where the scalar tail starts.
     */
    private static int products(int[] v, int c, int high, int low, int[] acc, int[] out) {
        int upper = INTS.loopBound(v.length);
        int i = 0;
        for (; i < upper; i += INTS.length()) {
            IntVector a = IntVector.fromArray(INTS, v, i);
            IntVector aHigh = a.lanewise(VectorOperators.LSHR, 16);
            IntVector aLow = a.and(0xFFFF);
            IntVector lowHigh = aLow.mul(high);
            IntVector highLow = aHigh.mul(low);
            IntVector middle = aLow.mul(low).lanewise(VectorOperators.LSHR, 16).add(lowHigh.and(0xFFFF))
                    .add(highLow.and(0xFFFF));
            IntVector quotient = aHigh.mul(high).add(lowHigh.lanewise(VectorOperators.LSHR, 16))
                    .add(highLow.lanewise(VectorOperators.LSHR, 16)).add(middle.lanewise(VectorOperators.LSHR, 16));
            IntVector product = a.mul(c).sub(quotient.mul(P)).sub(P);
            IntVector reduced = product.add(product.lanewise(VectorOperators.ASHR, 31).and(P));
            if (acc == null) {
                reduced.intoArray(out, i);
            } else { // no vector assigned in one branch only: C2 boxes a vector that two paths merge
                IntVector sum = IntVector.fromArray(INTS, acc, i).sub(P).add(reduced);
                sum.add(sum.lanewise(VectorOperators.ASHR, 31).and(P)).intoArray(out, i);
            }
        }
        return i;
    }

    @Override
    public String name() {
        return "vector-" + preferredBits();
    }
}

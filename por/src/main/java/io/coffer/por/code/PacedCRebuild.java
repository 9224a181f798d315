package io.coffer.por.code;

import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;

/**
 * CRebuild cut into steps of bounded work (section 6.1, "Deamortization"): the same butterflies as
 * {@link HierarchicalLog#rebuildC} on the same inputs, so the same C bit for bit, but run a few at a time over the
 * writes that follow an epoch's end, into a level that is not the live C (the live C stays whole for audits and
 * decoding until the caller switches).
 *
 * <p>The work is counted in units of one vector operation: reading one vector of U into an in-memory group, one
 * butterfly of one part, storing one group vector (both parts). In-memory groups of 2^g vectors take the first g FFT
 * passes (g + 2 units per vector: load, g passes of half a butterfly per part, store); the k - g remaining passes go
 * through the store (n units each). The total is n (k + 2) whatever g, so the pacing is a pure function of k that
 * the client computes as well as the server: after write w of the window, {@link #target} units are done, and the
 * rebuild is complete after {@link #stepsToComplete} writes, at most half an epoch. The group's vectors are held in
 * memory between steps; a restart begins again from unit 0 (the target's contents are then rewritten).
 *
 * <p>U is read in index order, one load unit per index ({@link #readThrough}). {@code source} must serve U as it was
 * at the epoch's end whatever the writes since ({@link CopyOnWriteSnapshot}); a caller that made its progress durable
 * could skip the copies of indices below {@link #readThrough}, one that restarts from unit 0 may not. Not
 * thread-safe.
 */
public final class PacedCRebuild {
    /** Memory for the in-memory group, per part, as the one-shot rebuild's: held for the whole window. */
    public static final int GROUP_BYTES = HierarchicalLog.GROUP_BYTES;

    private final CodeParameters params;
    private final VectorSource source;
    private final LevelStore target;
    private final int level;
    private final int width;
    private final int groupBits;
    private final int groupSize;
    private final long groupUnits;
    private final long groupPhaseUnits;
    private final int[][][] group; // [part][j] -> vector, for the group in progress
    private final int[] a;
    private final int[] b;
    private long done;

    /**
     * A rebuild of C at {@code params}' capacity from the n vectors of {@code source} (U's snapshot, tagged) into
     * {@code level} of {@code target}, starting at unit 0.
     */
    public PacedCRebuild(CodeParameters params, VectorSource source, LevelStore target, int level) {
        this(params, source, target, level, GROUP_BYTES);
    }

    /**
     * With the in-memory group limited to {@code groupBytes} per part: tests use small ones, and the client's part
     * over checksums one that it allocates in a call without a pause (the units, n (k + 2), are the same).
     */
    public PacedCRebuild(CodeParameters params, VectorSource source, LevelStore target, int level, int groupBytes) {
        this.params = params;
        this.source = source;
        this.target = target;
        this.level = level;
        this.width = target.width();
        int fit = 31 - Integer.numberOfLeadingZeros(Math.max(1, groupBytes / (4 * width)));
        this.groupBits = Math.min(params.k(), fit);
        this.groupSize = 1 << groupBits;
        this.groupUnits = (long) groupSize * (groupBits + 2);
        this.groupPhaseUnits = (long) params.n() * (groupBits + 2);
        this.group = new int[2][groupSize][width];
        this.a = new int[width];
        this.b = new int[width];
    }

    /** All the units of a rebuild at capacity 2^k: n (k + 2). */
    public static long totalUnits(int k) {
        return (long) (k + 2) << k;
    }

    /** The writes the rebuild is paced over: half an epoch (at least one). */
    public static int window(int k) {
        return Math.max(1, (1 << k) / 2);
    }

    /** Units per write: the total spread over the window, rounded up. */
    public static long unitsPerStep(int k) {
        return (totalUnits(k) + window(k) - 1) / window(k);
    }

    /** The units done once {@code steps} writes of the window have each run their share. */
    public static long target(int k, long steps) {
        return Math.min(totalUnits(k), Math.max(0, steps) * unitsPerStep(k));
    }

    /** The write of the window after which the rebuild is complete: a pure function of k, at most the window. */
    public static long stepsToComplete(int k) {
        return (totalUnits(k) + unitsPerStep(k) - 1) / unitsPerStep(k);
    }

    /**
     * The switch point in H adds of 2^b blocks: the window's add count a at which the rebuild is complete, the first
     * with a * 2^b >= {@link #stepsToComplete}, i.e. ceil(stepsToComplete(k) / 2^b), at least one. The one rule the
     * server's switch, the client's audits and the client's paced part all follow.
     */
    public static int addsToSwitch(int k, int batchExponent) {
        return (int) ((stepsToComplete(k) + (1L << batchExponent) - 1) >> batchExponent);
    }

    public long done() {
        return done;
    }

    public boolean complete() {
        return done == totalUnits(params.k());
    }

    /** The number of U's indices the rebuild has read (in index order): the others are still to be read. */
    public int readThrough() {
        if (done >= groupPhaseUnits) {
            return params.n();
        }
        long groups = done / groupUnits;
        long inGroup = Math.min(groupSize, done % groupUnits);
        return (int) (groups * groupSize + inGroup);
    }

    /** Runs the units up to {@code target(k, steps)}: the share of the window's first {@code steps} writes. */
    public void advanceTo(long steps) {
        advanceUnits(target(params.k(), steps));
    }

    /**
     * Runs the units up to {@code goal} (at most {@link #totalUnits}): a caller that paces the rebuild by its own
     * budget of units, as the client's part over checksums does.
     */
    public void advanceUnits(long goal) {
        long end = Math.min(goal, totalUnits(params.k()));
        while (done < end) {
            unit(done);
            done++;
        }
    }

    /** Runs every remaining unit (a grow, a resync or a close that cannot wait). */
    public void finish() {
        advanceTo(stepsToComplete(params.k()));
    }

    private void unit(long u) {
        if (u < groupPhaseUnits) {
            int first = (int) (u / groupUnits) * groupSize;
            long r = u % groupUnits;
            if (r < groupSize) {
                load(first + (int) r, (int) r);
            } else if (r < groupSize + (long) groupBits * groupSize) {
                long q = r - groupSize;
                int stage = (int) (q / groupSize);
                int inStage = (int) (q % groupSize);
                int half = groupSize / 2;
                Part part = inStage < half ? Part.X : Part.Y;
                groupButterfly(group[part.ordinal()], stage, inStage % half);
            } else {
                int j = (int) (r - groupSize - (long) groupBits * groupSize);
                target.write(level, Part.X, first + j, group[0][j]);
                target.write(level, Part.Y, first + j, group[1][j]);
            }
            return;
        }
        long q = u - groupPhaseUnits;
        int n = params.n();
        int stage = groupBits + (int) (q / n);
        int inStage = (int) (q % n);
        Part part = inStage < n / 2 ? Part.X : Part.Y;
        storeButterfly(part, stage, inStage % (n / 2));
    }

    /** U[i] is the write at time i: it enters X as is and Y times w^psi(i), as in {@link HierarchicalLog#rebuildC}. */
    private void load(int i, int j) {
        source.read(i, group[0][j]);
        ZpVectors.scale(group[0][j], Zp.pow(params.w(), params.psi(i)), group[1][j]);
    }

    /** Butterfly {@code m} of {@code stage} (n / 2 per stage): its pair and twiddle. */
    private int[] pair(int stage, int m) {
        int half = 1 << stage;
        int base = (m / half) * 2 * half;
        int j = m % half;
        return new int[] {base + j, base + j + half, Zp.pow(params.zeta(stage), j)};
    }

    private void groupButterfly(int[][] vectors, int stage, int m) {
        int[] p = pair(stage, m);
        ZpVectors.butterfly(vectors[p[0]], vectors[p[1]], p[2], vectors[p[0]], vectors[p[1]]);
    }

    private void storeButterfly(Part part, int stage, int m) {
        int[] p = pair(stage, m);
        target.read(level, part, p[0], a);
        target.read(level, part, p[1], b);
        ZpVectors.butterfly(a, b, p[2], a, b);
        target.write(level, part, p[0], a);
        target.write(level, part, p[1], b);
    }
}

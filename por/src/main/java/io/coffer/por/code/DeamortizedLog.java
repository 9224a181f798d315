package io.coffer.por.code;

import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;
import java.util.List;

/**
 * The hierarchical log with its rebuilds deamortised (section 6.1): every write does a bounded amount of coding work,
 * at most two butterflies (one for X, one for Y) per level, instead of HAdd's 2^(l+1) for a level-l rebuild.
 *
 * <p>How: a run of level l+1 is mix(older run of level l, newer run of level l), the same step as HAdd's chain, so the
 * result satisfies equation (1) for its level and start. A level-l merge is spread over 2^l writes, doing output
 * indices j and j + 2^l at the j-th. The merge of the two level-l runs that end at write e runs during writes
 * e + d_l .. e + d_l + 2^l - 1, where d_0 = 0 and d_(l+1) = d_l + 2^l - 1 is when its newer input is complete (levels
 * are processed in increasing order within a write, so an input completed by this write's work counts). Input runs
 * are kept until the merge that consumes them completes, so every write always lies in some complete run; level l
 * needs three run slots (a run lives about 2.5 periods of 2^l writes), so H takes three times the space of HAdd's.
 * Merges into level k are not started: at the n-th write C is due and CRebuild empties H anyway.
 *
 * <p>The state is still {@link LogState} (k, t, epoch): the schedule is a function of t ({@link DeamortizedSchedule}).
 * CRebuild is not deamortised: it is the same O(n log n) pass as {@link HierarchicalLog#rebuildC}.
 */
public final class DeamortizedLog implements WriteLog {
    /** Run slots per level the store must provide (as {@code MemoryLevelStore}'s {@code slots}). */
    public static final int SLOTS = 3;

    private final CodeParameters params;
    private final LevelStore store;
    private final int width;
    private final int[] a;
    private final int[] b;
    private final int[] y;
    private LogState state;

    public DeamortizedLog(CodeParameters params, LevelStore store, LogState state) {
        if (state.k() != params.k()) {
            throw new IllegalArgumentException("state for k = " + state.k() + ", parameters for k = " + params.k());
        }
        this.params = params;
        this.store = store;
        this.width = store.width();
        this.a = new int[width];
        this.b = new int[width];
        this.y = new int[width];
        this.state = state;
    }

    @Override
    public CodeParameters parameters() {
        return params;
    }

    @Override
    public LogState state() {
        return state;
    }

    /** Adds the next write and does this write's share of every pending merge; returns whether C is now due. */
    @Override
    public boolean add(int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, log width " + width);
        }
        if (state.cRebuildDue()) {
            throw new IllegalStateException("all " + params.n() + " writes of the epoch are in: rebuild C first");
        }
        int t = state.t();
        int count = t + 1;
        int offset = new DeamortizedSchedule.Vector(0, t, 0).position(); // the level-0 run of write t
        store.write(0, Part.X, offset, vector);
        ZpVectors.scale(vector, params.yMultiplier(t), y);
        store.write(0, Part.Y, offset, y);
        for (int level = 0; level + 1 < params.k(); level++) {
            mergeStep(level, count);
        }
        state = new LogState(params.k(), count, state.epoch());
        return state.cRebuildDue();
    }

    /** The share of the level-l merge that runs at write {@code count} (1-based), if one does. */
    private void mergeStep(int level, int count) {
        DeamortizedSchedule.Merge merge = DeamortizedSchedule.merge(level, count);
        if (merge == null) {
            return;
        }
        int twiddle = Zp.pow(params.zeta(level), merge.j());
        for (Part part : Part.values()) {
            store.read(level, part, merge.olderInput().position(), a);
            store.read(level, part, merge.newerInput().position(), b);
            ZpVectors.butterfly(a, b, twiddle, a, b);
            store.write(level + 1, part, merge.lowOutput().position(), a);
            store.write(level + 1, part, merge.highOutput().position(), b);
        }
        if (merge.last()) {
            int half = 1 << level;
            store.clear(level, merge.olderInput().position() - merge.j(), half);
            store.clear(level, merge.newerInput().position() - merge.j(), half);
        }
    }

    /**
     * 2^(levels+1): a level-l run depends on the 2^l adds from its start s, and the merge that consumes it last reads
     * it at add s + 3 * 2^l + d_l - 1 at the latest (as the older of its pair: the pair ends at s + 2^(l+1), the merge
     * runs 2^l adds from d_l after that), so fewer than 4 * 2^l adds span its first input and its last read; for
     * l < levels that is at most 2^(levels+1). Level k - 1's runs are never merged and live to the end of the epoch,
     * which is within 2^k adds of its start.
     */
    @Override
    public int addsHeldBelow(int levels) {
        if (levels < 0) {
            throw new IllegalArgumentException("a number of levels: " + levels);
        }
        return levels == 0 ? 0 : 1 << Math.min(levels + 1, Integer.SIZE - 2);
    }

    /**
     * The complete runs that hold every write of the epoch, each write in exactly one, oldest first
     * ({@link DeamortizedSchedule#runs}).
     */
    @Override
    public List<LogRun> runs() {
        return DeamortizedSchedule.runs(params.k(), state.t());
    }

    @Override
    public void newEpoch() {
        for (int level = 0; level <= params.k(); level++) {
            store.clear(level);
        }
        state = new LogState(params.k(), 0, state.epoch() + 1);
    }

    /** CRebuild: C := the code of {@code u}, H emptied (not deamortised). */
    public void rebuildC(VectorSource u) {
        HierarchicalLog log = new HierarchicalLog(params, store, state);
        log.rebuildC(u);
        state = log.state();
    }
}

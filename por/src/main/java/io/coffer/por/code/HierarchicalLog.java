package io.coffer.por.code;

import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;
import java.util.ArrayList;
import java.util.List;

/**
 * The hierarchical log H and the erasure-coded copy C of Figure 4, over vectors of any width: the server runs it
 * over blocks, the client over the homomorphic checksums of those blocks; the code is linear, so both get the same
 * result (the checksum of each code vector).
 *
 * <p>{@link #add} is HAdd: with levels 0..l-1 filled and level l empty, it runs HRebuildX(l, B) and
 * HRebuildY(l, B * w^psi(t)), the chain of mix steps, in place in level l's storage, and empties levels 0..l-1.
 * {@link #rebuildC} is CRebuild: C := the code of U as if its n vectors had been written at times 0..n-1 (the same
 * mix steps as a full FFT), and H emptied. After n adds the state says {@link LogState#cRebuildDue()} and the caller
 * must rebuild C before the next add. Not thread-safe.
 */
public final class HierarchicalLog {
    private final CodeParameters params;
    private final LevelStore store;
    private final int width;
    private final int[] a;
    private final int[] b;
    private final int[] y;
    private LogState state;

    /** A log resuming from {@code state} over {@code store}. */
    public HierarchicalLog(CodeParameters params, LevelStore store, LogState state) {
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

    public LogState state() {
        return state;
    }

    public CodeParameters parameters() {
        return params;
    }

    /** The filled levels as runs, oldest writes first: what recovery replays and audits sample. */
    public List<LogRun> runs() {
        List<LogRun> runs = new ArrayList<>();
        for (int level = params.k(); level >= 0; level--) {
            if (state.filled(level)) {
                runs.add(new LogRun(level, 0, state.start(level)));
            }
        }
        return runs;
    }

    /**
     * HAdd(B): adds the next write's vector to the log. Returns {@code true} when this was the epoch's n-th write,
     * after which {@link #rebuildC} must run before the next add.
     */
    public boolean add(int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, log width " + width);
        }
        if (state.cRebuildDue()) {
            throw new IllegalStateException("all " + params.n() + " writes of the epoch are in: rebuild C first");
        }
        int t = state.t();
        ZpVectors.scale(vector, params.yMultiplier(t), y);
        int level = Integer.numberOfTrailingZeros(~t); // levels 0..level-1 are filled, level is empty
        rebuildPart(level, Part.X, vector);
        rebuildPart(level, Part.Y, y);
        for (int i = 0; i < level; i++) {
            store.clear(i);
        }
        state = new LogState(params.k(), t + 1, state.epoch());
        return state.cRebuildDue();
    }

    /**
     * HRebuildX(level, B) (or Y): X~1 = mix(X0, B), X~(i+1) = mix(X_i, X~i), X_level = X~level. X~i lives in the
     * first 2^i slots of level {@code level}, and mix(X_i, X~i) writes A[j] over X~i[j] and A[j + 2^i] into the
     * free slot above, so no temporary arrays are needed.
     */
    private void rebuildPart(int level, Part part, int[] newest) {
        if (level == 0) {
            store.write(0, part, 0, newest);
            return;
        }
        // i = 0: mix(X_0, B) with nu^0 = 1
        store.read(0, part, 0, a);
        System.arraycopy(newest, 0, b, 0, width);
        ZpVectors.butterfly(a, b, 1, a, b);
        store.write(level, part, 0, a);
        store.write(level, part, 1, b);
        for (int i = 1; i < level; i++) {
            int half = 1 << i;
            int nu = params.zeta(i);
            int twiddle = 1;
            for (int j = 0; j < half; j++) {
                store.read(i, part, j, a);
                store.read(level, part, j, b);
                ZpVectors.butterfly(a, b, twiddle, a, b);
                store.write(level, part, j, a);
                store.write(level, part, j + half, b);
                twiddle = Zp.mul(twiddle, nu);
            }
        }
    }

    /**
     * CRebuild: C (level k + 1) := the code of the n vectors of {@code u} (U, or its checksums), and H emptied. Runs
     * at initialisation (state t = 0) and whenever {@link LogState#cRebuildDue()}; it may run at any other time too.
     */
    public void rebuildC(VectorSource u) {
        int c = params.cLevel();
        int n = params.n();
        int k = params.k();
        int w = params.w();
        for (int i = 0; i < n; i++) {
            // U[i] is the write at time i: it enters X as is and Y times w^psi(i), like HAdd's. Iterative FFTs take
            // their input bit-reversed, and the code's input is pi_k(U), so U goes in in index order.
            u.read(i, a);
            store.write(c, Part.X, i, a);
            ZpVectors.scale(a, Zp.pow(w, params.psi(i)), b);
            store.write(c, Part.Y, i, b);
        }
        for (Part part : Part.values()) {
            for (int i = 0; i < k; i++) {
                int half = 1 << i;
                int nu = params.zeta(i);
                for (int base = 0; base < n; base += 2 * half) {
                    int twiddle = 1;
                    for (int j = 0; j < half; j++) {
                        store.read(c, part, base + j, a);
                        store.read(c, part, base + j + half, b);
                        ZpVectors.butterfly(a, b, twiddle, a, b);
                        store.write(c, part, base + j, a);
                        store.write(c, part, base + j + half, b);
                        twiddle = Zp.mul(twiddle, nu);
                    }
                }
            }
        }
        newEpoch();
    }

    /**
     * Empties H and starts the next epoch without touching C: for a caller that keeps C in another log (a
     * {@link BatchedLog}, whose H holds batches and whose C holds blocks). {@link #rebuildC} ends with this.
     */
    public void newEpoch() {
        for (int level = 0; level <= params.k(); level++) {
            store.clear(level);
        }
        state = new LogState(params.k(), 0, state.epoch() + 1);
    }
}

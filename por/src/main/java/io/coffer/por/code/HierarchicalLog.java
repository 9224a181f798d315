package io.coffer.por.code;

import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

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
public final class HierarchicalLog implements WriteLog {
    /** Memory for one group of CRebuild's in-memory passes, per part. */
    static final int GROUP_BYTES = 16 << 20;

    private final int groupBytes;
    private final CodeParameters params;
    private final LevelStore store;
    private final int width;
    private final Executor executor;
    private final int[][] a; // per part: scratch vectors, so the parts can run on two threads
    private final int[][] b;
    private final int[] y;
    /** Per part: the depth-first HRebuild's vectors, one per stage and one for the newest, made when first needed. */
    private final List<List<int[]>> stages = List.of(new ArrayList<>(), new ArrayList<>());
    private final int[] zetas; // zeta(i) of each stage i of HRebuild
    private LogState state;

    /** A log resuming from {@code state} over {@code store}, on the caller's thread. */
    public HierarchicalLog(CodeParameters params, LevelStore store, LogState state) {
        this(params, store, state, null, GROUP_BYTES);
    }

    /**
     * A log that works on the X part on {@code executor} while the caller's thread works on the Y part (the parts are
     * independent), so a rebuild takes about half the time on two cores; {@code store} must then allow one thread per
     * part.
     */
    public HierarchicalLog(CodeParameters params, LevelStore store, LogState state, Executor executor) {
        this(params, store, state, executor, GROUP_BYTES);
    }

    /** With CRebuild's in-memory groups limited to {@code groupBytes} per part (tests use small ones). */
    HierarchicalLog(CodeParameters params, LevelStore store, LogState state, Executor executor, int groupBytes) {
        if (state.k() != params.k()) {
            throw new IllegalArgumentException("state for k = " + state.k() + ", parameters for k = " + params.k());
        }
        this.groupBytes = groupBytes;
        this.params = params;
        this.store = store;
        this.width = store.width();
        this.executor = executor;
        this.a = new int[2][width];
        this.b = new int[2][width];
        this.y = new int[width];
        this.zetas = new int[params.k() + 1];
        for (int i = 0; i <= params.k(); i++) {
            zetas[i] = params.zeta(i);
        }
        this.state = state;
    }

    @Override
    public LogState state() {
        return state;
    }

    @Override
    public CodeParameters parameters() {
        return params;
    }

    /** The filled levels as runs, oldest writes first: what recovery replays and audits sample. */
    @Override
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
     * t mod 2^levels: the filled levels below {@code levels} hold exactly the adds since t was last a multiple of
     * 2^levels (fewer than 2^levels; none there, where those levels are all empty), and HAdd reads only filled levels.
     */
    @Override
    public int addsHeldBelow(int levels) {
        if (levels < 0) {
            throw new IllegalArgumentException("a number of levels: " + levels);
        }
        return levels >= Integer.SIZE - 1 ? state.t() : state.t() & ((1 << levels) - 1);
    }

    /**
     * HAdd(B): adds the next write's vector to the log. Returns {@code true} when this was the epoch's n-th write,
     * after which {@link #rebuildC} must run before the next add.
     */
    @Override
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
        forBothParts(part -> rebuildPart(level, part, part == Part.X ? vector : y));
        for (int i = 0; i < level; i++) {
            store.clear(i);
        }
        state = new LogState(params.k(), t + 1, state.epoch());
        return state.cRebuildDue();
    }

    /**
     * HRebuildX(level, B) (or Y): X~1 = mix(X0, B), X~(i+1) = mix(X_i, X~i), X_level = X~level. Depth first
     * ({@link #descend}) when its level + 1 vectors fit the group budget: every vector of the level is then written
     * once and nothing is read back. Otherwise pass by pass: X~i lives in the first 2^i slots of level
     * {@code level}, and mix(X_i, X~i) writes A[j] over X~i[j] and A[j + 2^i] into the free slot above, so no
     * temporary arrays are needed, but the level is written twice over and read once.
     */
    private void rebuildPart(int level, Part part, int[] newest) {
        if (level == 0) {
            store.write(0, part, 0, newest);
            return;
        }
        if ((long) (level + 1) * width * Integer.BYTES <= groupBytes) {
            int[] root = stage(part, level);
            System.arraycopy(newest, 0, root, 0, width);
            descend(level, part, 0, 0, root);
            return;
        }
        int[] a = this.a[part.ordinal()];
        int[] b = this.b[part.ordinal()];
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
     * Butterfly j of stage i of HRebuild(level): mix(X_i[j], X~i[j] = {@code in}) gives X~(i+1)[j] and
     * X~(i+1)[j + 2^i], each the input of one butterfly of stage i + 1 (the same j and j + 2^i), which run before
     * the next butterfly of stage i; the last stage writes level {@code level}. The same butterflies on the same
     * inputs as the passes, in another order, so the result is the same; it holds one vector per stage.
     */
    private void descend(int level, Part part, int i, int j, int[] in) {
        int[] a = stage(part, i);
        store.read(i, part, j, a);
        ZpVectors.butterfly(a, in, Zp.pow(zetas[i], j), a, in);
        int half = 1 << i;
        if (i + 1 == level) {
            store.write(level, part, j, a);
            store.write(level, part, j + half, in);
            return;
        }
        descend(level, part, i + 1, j, a);
        descend(level, part, i + 1, j + half, in);
    }

    private int[] stage(Part part, int i) {
        List<int[]> vectors = stages.get(part.ordinal());
        while (vectors.size() <= i) {
            vectors.add(new int[width]);
        }
        return vectors.get(i);
    }

    /**
     * CRebuild: C (level k + 1) := the code of the n vectors of {@code u} (U, or its checksums), and H emptied. Runs
     * at initialisation (state t = 0) and whenever {@link LogState#cRebuildDue()}; it may run at any other time too.
     *
     * <p>The k butterfly passes of the FFT would each read and write all 2n vectors of C through the store. The
     * first g passes only combine vectors within aligned groups of 2^g, so they run in memory on one group at a time
     * (g as large as {@link #GROUP_BYTES} allows), and U is read and C written once for them; the remaining k - g
     * passes go through the store g at a time ({@link #storePasses}), so C is read and written ceil((k - g) / g) more
     * times, not k - g.
     */
    public void rebuildC(VectorSource u) {
        int c = params.cLevel();
        int n = params.n();
        int k = params.k();
        int w = params.w();
        int groupBits = Math.min(k, 31 - Integer.numberOfLeadingZeros(Math.max(1, groupBytes / (4 * width))));
        int groupSize = 1 << groupBits;
        int[][] x = new int[Math.max(2, groupSize)][width]; // a store pass takes at least one stage: two vectors
        int[][] y = new int[x.length][width];
        for (int group = 0; group < n; group += groupSize) {
            for (int j = 0; j < groupSize; j++) {
                // U[i] is the write at time i: it enters X as is and Y times w^psi(i), like HAdd's. Iterative FFTs
                // take their input bit-reversed, and the code's input is pi_k(U), so U goes in in index order.
                int i = group + j;
                u.read(i, x[j]);
                ZpVectors.scale(x[j], Zp.pow(w, params.psi(i)), y[j]);
            }
            forBothParts(part -> inMemoryPasses(part == Part.X ? x : y, groupBits));
            for (int j = 0; j < groupSize; j++) {
                store.write(c, Part.X, group + j, x[j]);
                store.write(c, Part.Y, group + j, y[j]);
            }
        }
        forBothParts(part -> storePasses(part, groupBits, part == Part.X ? x : y));
        newEpoch();
    }

    /**
     * CRebuild of a U whose vectors are zero but for element {@code position}, whose value in vector i is
     * {@code element(i)}: a new store, where only the tags are non-zero. Element positions are independent, so this
     * is the same code as {@link #rebuildC} computed for that position alone (two arrays of n ints), and the store
     * keeps the zeros as it likes ({@link LevelStore#writeOneElement}: a file store leaves holes). H is emptied.
     */
    public void rebuildCOneElement(int position, IntUnaryOperator element) {
        checkPosition(position);
        int[][] code = oneElementCode(element);
        store.writeOneElement(params.cLevel(), position, code[0], code[1]);
        newEpoch();
    }

    /**
     * CRebuild of a U whose vectors from 2^{@code usedK} on are zero but for element {@code position}, which is
     * {@code emptyElement(i)} in vector i: a store grown from 2^usedK blocks, whose new blocks were never written. w at
     * k is a 2^(k - usedK)-th root of w at usedK, so C at k is C at usedK of the first 2^usedK vectors repeated
     * (its X[j] and Y[j] at every position j' with j' mod 2^usedK = j) plus the code of the empty vectors, non-zero at
     * {@code position} only (docs/POR.md, "Resizing"; {@code CapacityDoublingTest}): the butterflies run over 2^usedK
     * vectors, the empty ones are not read, and C is written once more than by the rebuild at usedK. The same C as
     * {@link #rebuildC}; H emptied.
     */
    public void rebuildCWithEmptyTail(VectorSource u, int usedK, int position, IntUnaryOperator emptyElement) {
        checkPosition(position);
        if (usedK < 0 || usedK > params.k()) {
            throw new IllegalArgumentException("used capacity 2^" + usedK + " outside 2^0..2^" + params.k());
        }
        if (usedK == params.k()) {
            rebuildC(u);
            return;
        }
        int used = 1 << usedK;
        int c = params.cLevel();
        CodeParameters usedParams = new CodeParameters(usedK);
        new HierarchicalLog(usedParams, new LevelView(store, usedParams.cLevel(), c), LogState.empty(usedK), executor,
                groupBytes).rebuildC(u);
        int[][] tail = oneElementCode(i -> i < used ? 0 : emptyElement.applyAsInt(i));
        int[] v = new int[width];
        for (Part part : Part.values()) {
            int[] added = tail[part.ordinal()];
            // ascending positions: the first copy of vector j goes over the used code's vector j, whose element at
            // position the later copies take back from it
            for (int q = 0; q < params.n(); q++) {
                int j = q & (used - 1);
                store.read(c, part, j, v);
                int usedElement = q < used ? v[position] : Zp.sub(v[position], added[j]);
                v[position] = Zp.add(usedElement, added[q]);
                store.write(c, part, q, v);
            }
        }
        newEpoch();
    }

    private void checkPosition(int position) {
        if (position < 0 || position >= width) {
            throw new IllegalArgumentException("element position " + position + " outside [0, " + width + ")");
        }
    }

    /** C's X and Y at one element position of a U whose vector i holds {@code element(i)} there: n ints each. */
    private int[][] oneElementCode(IntUnaryOperator element) {
        int n = params.n();
        int w = params.w();
        int[] x = new int[n];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = element.applyAsInt(i);
            y[i] = Zp.mul(x[i], Zp.pow(w, params.psi(i)));
        }
        for (int[] part : new int[][] {x, y}) {
            for (int stage = 0; stage < params.k(); stage++) {
                int half = 1 << stage;
                int nu = params.zeta(stage);
                for (int base = 0; base < n; base += 2 * half) {
                    int twiddle = 1;
                    for (int j = 0; j < half; j++) {
                        int a = part[base + j];
                        int b = Zp.mul(part[base + j + half], twiddle);
                        part[base + j] = Zp.add(a, b);
                        part[base + j + half] = Zp.sub(a, b);
                        twiddle = Zp.mul(twiddle, nu);
                    }
                }
            }
        }
        return new int[][] {x, y};
    }

    /** A store seen with one level renamed: C of a smaller capacity written where this log's C is. */
    private record LevelView(LevelStore store, int from, int to) implements LevelStore {
        private int level(int level) {
            return level == from ? to : level;
        }

        @Override
        public int width() {
            return store.width();
        }

        @Override
        public void read(int level, Part part, int index, int[] into) {
            store.read(level(level), part, index, into);
        }

        @Override
        public void write(int level, Part part, int index, int[] vector) {
            store.write(level(level), part, index, vector);
        }

        @Override
        public void clear(int level) {
            store.clear(level(level));
        }
    }

    /** The first {@code passes} FFT passes over one group of vectors in memory. */
    private void inMemoryPasses(int[][] vectors, int passes) {
        for (int stage = 0; stage < passes; stage++) {
            int half = 1 << stage;
            int nu = params.zeta(stage);
            for (int base = 0; base < vectors.length; base += 2 * half) {
                int twiddle = 1;
                for (int j = 0; j < half; j++) {
                    ZpVectors.butterfly(vectors[base + j], vectors[base + j + half], twiddle, vectors[base + j],
                            vectors[base + j + half]);
                    twiddle = Zp.mul(twiddle, nu);
                }
            }
        }
    }

    /**
     * The FFT passes from {@code firstStage} on, over one part of C through the store, as many at a time as {@code
     * group} holds vectors (g stages for 2^g; at least one): the vectors whose indices differ only in bits s..s+g-1
     * are closed under the butterflies of stages s..s+g-1, so each such set is read once, taken through those stages
     * in memory and written once (an out-of-core FFT). The butterflies and their twiddles are those of one stage at a
     * time, in an order that keeps each stage's inputs before its outputs: the same C.
     */
    private void storePasses(Part part, int firstStage, int[][] group) {
        int c = params.cLevel();
        int n = params.n();
        int k = params.k();
        int perPass = 31 - Integer.numberOfLeadingZeros(group.length);
        for (int first = firstStage; first < k; first += perPass) {
            int stages = Math.min(perPass, k - first);
            int size = 1 << stages;
            int stride = 1 << first;
            // stage first + t pairs index p with p + 2^(first + t) under the twiddle nu^(p mod 2^(first + t)), that is
            // nu^low * (nu^stride)^j for the j-th pair of a run of the set at offset low
            int[] nu = new int[stages];
            int[] step = new int[stages];
            int[] start = new int[stages];
            for (int t = 0; t < stages; t++) {
                nu[t] = params.zeta(first + t);
                step[t] = Zp.pow(nu[t], stride);
            }
            for (int high = 0; high < n; high += stride << stages) {
                Arrays.fill(start, 1);
                for (int low = 0; low < stride; low++) {
                    for (int m = 0; m < size; m++) {
                        store.read(c, part, high + low + m * stride, group[m]);
                    }
                    for (int t = 0; t < stages; t++) {
                        int half = 1 << t;
                        for (int base = 0; base < size; base += 2 * half) {
                            int twiddle = start[t];
                            for (int j = 0; j < half; j++) {
                                ZpVectors.butterfly(group[base + j], group[base + j + half], twiddle, group[base + j],
                                        group[base + j + half]);
                                twiddle = Zp.mul(twiddle, step[t]);
                            }
                        }
                        start[t] = Zp.mul(start[t], nu[t]);
                    }
                    for (int m = 0; m < size; m++) {
                        store.write(c, part, high + low + m * stride, group[m]);
                    }
                }
            }
        }
    }

    /** Runs {@code work} for X and for Y: X on the executor (if any) while Y runs here. */
    private void forBothParts(Consumer<Part> work) {
        if (executor == null) {
            work.accept(Part.X);
            work.accept(Part.Y);
            return;
        }
        CompletableFuture<Void> x = CompletableFuture.runAsync(() -> work.accept(Part.X), executor);
        try {
            work.accept(Part.Y);
        } finally {
            try {
                x.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw e;
            }
        }
    }

    /**
     * Empties H and starts the next epoch without touching C: for a caller that keeps C in another log (a
     * {@link BatchedLog}, whose H holds batches and whose C holds blocks). {@link #rebuildC} ends with this.
     */
    @Override
    public void newEpoch() {
        for (int level = 0; level <= params.k(); level++) {
            store.clear(level);
        }
        state = new LogState(params.k(), 0, state.epoch() + 1);
    }
}

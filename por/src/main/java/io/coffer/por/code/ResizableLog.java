package io.coffer.por.code;

import java.util.function.IntFunction;

/**
 * A log whose number of blocks changes (appendix A.3): inserts take the next index, and when the capacity n = 2^k is
 * full it doubles: C is rebuilt for 2n blocks in a store for k + 1 (one CRebuild per doubling, so O(log n) per insert
 * amortised, like the epoch's). A delete writes the block's zero vector (tagged with its index) like any write; a
 * freed index may be reused. When more than half of the blocks in use are deleted, {@link #consolidationDue()}: the
 * caller moves the live blocks to indices 0..live-1 and {@link #consolidate} rebuilds C at the smallest capacity that
 * holds them.
 *
 * <p>Every {@link VectorSource} given here must serve every index below the capacity it is used for, an unused or
 * deleted index as that index's empty vector (for blocks: {@link BlockTag#empty}). The state to persist is
 * {@link #state()}, {@link #size()} and {@link #deleted()}.
 */
public final class ResizableLog {
    private final IntFunction<LevelStore> stores;
    private LevelStore store;
    private HierarchicalLog log;
    private int size;
    private int deleted;

    /**
     * Resumes (or starts, with {@code LogState.empty(k)}, then {@link #rebuildC}) a log over {@code stores.apply(k)};
     * {@code stores} gives the store for a capacity exponent (the server: files or objects named by k).
     */
    public ResizableLog(IntFunction<LevelStore> stores, LogState state, int size, int deleted) {
        if (size < 0 || size > 1 << state.k() || deleted < 0 || deleted > size) {
            throw new IllegalArgumentException("size " + size + " and deleted " + deleted + " do not fit k = "
                    + state.k());
        }
        this.stores = stores;
        this.store = stores.apply(state.k());
        this.log = new HierarchicalLog(new CodeParameters(state.k()), store, state);
        this.size = size;
        this.deleted = deleted;
    }

    public LogState state() {
        return log.state();
    }

    /** The number of indices in use (live and deleted): 0..size-1. */
    public int size() {
        return size;
    }

    public int deleted() {
        return deleted;
    }

    public int capacity() {
        return log.parameters().n();
    }

    /** The log of the current capacity (its store holds H and C). */
    public HierarchicalLog log() {
        return log;
    }

    /** The store of the current capacity. */
    public LevelStore store() {
        return store;
    }

    /** Builds C for the current capacity: once, when the log starts. */
    public void rebuildC(VectorSource u) {
        log.rebuildC(u);
    }

    /** Overwrites live block {@code index} (below {@link #size()}); {@code u} already holds the new block. */
    public void write(int index, int[] tagged, VectorSource u) {
        checkInUse(index, tagged);
        add(tagged, u);
    }

    /** Writes a block into a deleted index, which becomes live again. */
    public void reuse(int index, int[] tagged, VectorSource u) {
        checkInUse(index, tagged);
        if (deleted == 0) {
            throw new IllegalStateException("no deleted block to reuse");
        }
        deleted--;
        add(tagged, u);
    }

    /** Deletes block {@code index}: its empty vector is written ({@code u} already serves it). */
    public void delete(int index, int[] emptyTagged, VectorSource u) {
        checkInUse(index, emptyTagged);
        if (deleted == size) {
            throw new IllegalStateException("every block is deleted already");
        }
        deleted++;
        add(emptyTagged, u);
    }

    /**
     * Appends a block at index {@link #size()} and returns that index; {@code u} already serves it. When the
     * capacity is full it doubles first and C is rebuilt over the 2n indices (which then include the new block).
     */
    public int insert(int[] tagged, VectorSource u) {
        int index = size;
        if (BlockTag.index(tagged) != index) {
            throw new IllegalArgumentException("an insert takes index " + index + ", the vector is tagged "
                    + BlockTag.index(tagged));
        }
        if (size == capacity()) {
            size++;
            rebuildAt(log.parameters().k() + 1, u);
        } else {
            size++;
            add(tagged, u);
        }
        return index;
    }

    /** Whether more than half of the blocks in use are deleted. */
    public boolean consolidationDue() {
        return 2 * deleted > size;
    }

    /**
     * After the caller has moved the {@code live} live blocks to indices 0..live-1 ({@code compacted} serves them,
     * tagged with their new indices, and empty vectors above), rebuilds C at the smallest capacity that holds them.
     */
    public void consolidate(int live, VectorSource compacted) {
        if (live != size - deleted) {
            throw new IllegalArgumentException(live + " live blocks, expected " + (size - deleted));
        }
        size = live;
        deleted = 0;
        rebuildAt(live <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(live - 1), compacted);
    }

    private void add(int[] tagged, VectorSource u) {
        if (log.add(tagged)) {
            log.rebuildC(u);
        }
    }

    /** A new epoch at capacity 2^k: C over {@code u} in a fresh store, the old store's levels all cleared. */
    private void rebuildAt(int k, VectorSource u) {
        CodeParameters old = log.parameters();
        for (int level = 0; level <= old.cLevel(); level++) {
            store.clear(level);
        }
        store = stores.apply(k);
        log = new HierarchicalLog(new CodeParameters(k), store, new LogState(k, 0, log.state().epoch()));
        log.rebuildC(u);
    }

    private void checkInUse(int index, int[] tagged) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("block " + index + " is not in use (size " + size + ")");
        }
        if (BlockTag.index(tagged) != index) {
            throw new IllegalArgumentException("block " + index + " written with a vector tagged "
                    + BlockTag.index(tagged));
        }
    }
}

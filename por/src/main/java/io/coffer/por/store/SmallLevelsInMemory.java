package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import java.io.IOException;

/**
 * H's smallest levels in memory only (section 6.1 of the PoR paper): levels below {@link #memoryLevels()} are written
 * to memory (outside the heap: {@link OffHeapLevels}) and never to {@code files}, which keeps the larger ones. Every
 * batch rebuilds one of the small levels and only one batch in 2^memoryLevels reaches a larger one, so most adds
 * write no level file at all.
 *
 * <p>Crash safety comes from {@link JournaledPorServer}: its journal keeps, before each checkpoint, the records of the
 * latest adds these levels depend on (its window, {@code WriteLog.addsHeldBelow}), and every call since, so a restart
 * rebuilds them by replaying. A small level that a store checkpointed in its files (by a version that kept every level
 * in files, or with a larger memory budget than now, or closed cleanly: {@link #spill}) is read from its files until
 * it is rewritten.
 */
final class SmallLevelsInMemory implements VectorStore {
    /**
     * At most this much memory for the small levels (and, on disk, a journal of the 2^(m+1) batches they depend on and
     * up to 2^m more since the checkpoint, about as much again): at 64 KiB blocks and b = 4 (1.1 MB vectors) and three
     * run slots per level, levels 0..3; each level in memory saves the level-file reads and writes of its merges.
     */
    static final long MAX_BUDGET_BYTES = 160L << 20;
    /** Sets the budget in MiB (0: every level in files), overriding the default. */
    static final String BUDGET_PROPERTY = "coffer.por.levels-memory-mib";

    private final VectorStore files;
    private final OffHeapLevels memory;
    private final int memoryLevels;

    /** Levels below {@code memoryLevels} in memory, with as many run slots as {@code files} has. */
    SmallLevelsInMemory(VectorStore files, CodeParameters params, int memoryLevels) {
        if (memoryLevels < 0 || memoryLevels > params.k()) {
            throw new IllegalArgumentException("memory levels must be in [0, " + params.k() + "]: " + memoryLevels);
        }
        this.files = files;
        this.memory = new OffHeapLevels(params, files.width(), memoryLevels, files.partSize(0));
        this.memoryLevels = memoryLevels;
    }

    /**
     * How many of H's levels (0, 1, ...) fit {@code budgetBytes} with {@code slots} run slots per level: level l
     * holds 2 * slots * 2^l vectors of {@code width} ints, so levels 0..m-1 take slots * (2^(m+1) - 2) vectors. At
     * most k, C's level never.
     */
    static int memoryLevels(CodeParameters params, int width, int slots, long budgetBytes) {
        long vectorBytes = (long) width * Integer.BYTES * slots;
        int m = 0;
        while (m < params.k() && ((2L << (m + 1)) - 2) * vectorBytes <= budgetBytes) {
            m++;
        }
        return m;
    }

    /** The budget that holds exactly {@code levels} levels of {@code slots} run slots of vectors of {@code width} ints. */
    static long budgetFor(int levels, int width, int slots) {
        return ((2L << levels) - 2) * slots * width * Integer.BYTES;
    }

    /**
     * The default budget: {@code -Dcoffer.por.levels-memory-mib=M} if set, else an eighth of the heap, at most {@link
     * #MAX_BUDGET_BYTES}: direct memory, which the JVM caps at the heap's size by default; a restart reads the journal
     * they imply onto the heap a segment (at most 2^m batches) at a time.
     */
    static long defaultBudget() {
        String mib = System.getProperty(BUDGET_PROPERTY);
        if (mib != null && !mib.isBlank()) {
            long value;
            try {
                value = Long.parseLong(mib.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(BUDGET_PROPERTY + " must be a number of MiB: " + mib, e);
            }
            if (value < 0 || value > (Long.MAX_VALUE >> 20)) {
                throw new IllegalArgumentException(BUDGET_PROPERTY + " must be a non-negative number of MiB: " + mib);
            }
            return value << 20;
        }
        return Math.min(MAX_BUDGET_BYTES, Runtime.getRuntime().maxMemory() / 8);
    }

    /** Levels 0..memoryLevels()-1 live in memory. */
    int memoryLevels() {
        return memoryLevels;
    }

    /**
     * Writes the levels in memory to the files and forgets them here, so that they are read from the files until
     * rewritten: before a checkpoint taken with them filled (a clean close).
     */
    void spill() {
        int[] vector = new int[width()];
        for (int level = 0; level < memoryLevels; level++) {
            for (Part part : Part.values()) {
                for (int i = 0; i < partSize(level); i++) {
                    if (memory.contains(level, part, i)) {
                        memory.read(level, part, i, vector);
                        files.write(level, part, i, vector);
                    }
                }
            }
            memory.clear(level);
        }
    }

    @Override
    public int width() {
        return files.width();
    }

    @Override
    public int partSize(int level) {
        return files.partSize(level);
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        if (inMemory(level, part, index)) {
            memory.read(level, part, index, into);
        } else {
            files.read(level, part, index, into);
        }
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (level < memoryLevels) {
            memory.write(level, part, index, vector);
        } else {
            files.write(level, part, index, vector);
        }
    }

    @Override
    public void clear(int level) {
        if (level < memoryLevels) {
            memory.clear(level);
        }
        files.clear(level);
    }

    @Override
    public void clear(int level, int from, int count) {
        if (level < memoryLevels) {
            memory.clear(level, from, count);
        }
        files.clear(level, from, count);
    }

    @Override
    public void writeOneElement(int level, int position, int[] x, int[] y) {
        if (level < memoryLevels) {
            memory.writeOneElement(level, position, x, y);
        } else {
            files.writeOneElement(level, position, x, y);
        }
    }

    @Override
    public int[][] readSlice(int level, Part part, int from, int count, int[] positions) {
        if (level >= memoryLevels) {
            return files.readSlice(level, part, from, count, positions);
        }
        // a run written across a spill has vectors in both places
        int[][] out = new int[count][];
        int[] vector = new int[width()];
        for (int i = 0; i < count; i++) {
            if (inMemory(level, part, from + i)) {
                memory.read(level, part, from + i, vector);
                out[i] = new int[positions.length];
                for (int j = 0; j < positions.length; j++) {
                    out[i][j] = vector[positions[j]];
                }
            } else {
                out[i] = files.readSlice(level, part, from + i, 1, positions)[0];
            }
        }
        return out;
    }

    @Override
    public void force() throws IOException {
        files.force();
    }

    @Override
    public void close() throws IOException {
        files.close();
    }

    private boolean inMemory(int level, Part part, int index) {
        return level < memoryLevels && index >= 0 && index < partSize(level) && memory.contains(level, part, index);
    }
}

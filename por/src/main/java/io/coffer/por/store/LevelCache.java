package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import java.util.Arrays;

/**
 * The smallest levels of H in memory, beside their files ({@link FileLevelStore}: write-through, so the files and
 * their forcing, hence crash safety, are as without it). Level l holds 2 * 2^l vectors, and every level costs an
 * add the same I/O amortised, but the small ones are rebuilt most often: level 0 at every other add, level 1 at
 * every fourth. The levels cached are 0..m-1 for the largest m whose vectors fit {@code budgetBytes} together; a
 * vector's slot is filled when it is first written or read (after a reopen, from its file), so the memory held is
 * at most the budget.
 */
final class LevelCache {
    static final String BUDGET_PROPERTY = "coffer.por.level-cache-mib";
    static final long MAX_BUDGET = 32L << 20;

    private final int levels;
    private final int width;
    private final int[][][][] vectors; // [level][part][index], null until written or read

    LevelCache(CodeParameters params, int width, long budgetBytes) {
        this.width = width;
        this.levels = levelsWithin(params, width, budgetBytes);
        this.vectors = new int[levels][2][][];
        for (int level = 0; level < levels; level++) {
            for (Part part : Part.values()) {
                vectors[level][part.ordinal()] = new int[params.partSize(level)][];
            }
        }
    }

    /**
     * The budget of a store's cache: {@value #BUDGET_PROPERTY} MiB when set (0: none), else a sixteenth of the heap,
     * at most 32 MiB, so a small heap keeps most of itself for the rest of the server.
     */
    static long budgetBytes() {
        Long mib = Long.getLong(BUDGET_PROPERTY);
        if (mib != null) {
            if (mib < 0 || mib > 1L << 20) {
                throw new IllegalArgumentException(BUDGET_PROPERTY + " must be in [0, 1048576] MiB: " + mib);
            }
            return mib << 20;
        }
        return Math.min(MAX_BUDGET, Runtime.getRuntime().maxMemory() / 16);
    }

    /** How many of H's levels (0..k, not C) fit {@code budgetBytes}, smallest first. */
    static int levelsWithin(CodeParameters params, int width, long budgetBytes) {
        long vectorBytes = (long) width * Integer.BYTES;
        long total = 0;
        int levels = 0;
        while (levels <= params.k()) {
            total += 2L * params.partSize(levels) * vectorBytes;
            if (total > budgetBytes) {
                break;
            }
            levels++;
        }
        return levels;
    }

    /** The number of levels held, 0..m-1. */
    int levels() {
        return levels;
    }

    boolean covers(int level) {
        return level < levels;
    }

    /** Copies the cached vector into {@code into}; false (and nothing copied) when it is not held. */
    boolean get(int level, Part part, int index, int[] into) {
        if (level >= levels) {
            return false;
        }
        int[] v = vectors[level][part.ordinal()][index];
        if (v == null) {
            return false;
        }
        System.arraycopy(v, 0, into, 0, width);
        return true;
    }

    /** Holds a copy of {@code vector} (what its file now holds) if its level is cached. */
    void put(int level, Part part, int index, int[] vector) {
        if (level >= levels) {
            return;
        }
        int[][] slots = vectors[level][part.ordinal()];
        if (slots[index] == null) {
            slots[index] = new int[width];
        }
        System.arraycopy(vector, 0, slots[index], 0, width);
    }

    /** Forgets a level's vectors (its file was rewritten another way): they are read from the file again. */
    void drop(int level) {
        if (level >= levels) {
            return;
        }
        for (int[][] slots : vectors[level]) {
            Arrays.fill(slots, null);
        }
    }

    /** Bytes of vectors held now. */
    long bytes() {
        long held = 0;
        for (int[][][] level : vectors) {
            for (int[][] slots : level) {
                for (int[] v : slots) {
                    if (v != null) {
                        held += (long) v.length * Integer.BYTES;
                    }
                }
            }
        }
        return held;
    }
}

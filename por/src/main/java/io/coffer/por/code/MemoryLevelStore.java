package io.coffer.por.code;

import java.util.Arrays;

/**
 * A {@link LevelStore} in memory: what tests and benchmarks use, and a reference for the server's and client's
 * stores. Cleared vectors keep their arrays (marked absent), so rebuilds do not reallocate.
 */
public final class MemoryLevelStore implements LevelStore {
    private final CodeParameters params;
    private final int width;
    private final int slots;
    private final int[][][][] levels; // [level][part][index] -> vector (allocated on first write)
    private final boolean[][][] present; // [level][part][index]: whether the vector is part of the code

    /** A store for a {@link HierarchicalLog}: each part of level l holds 2^l vectors (C: n). */
    public MemoryLevelStore(CodeParameters params, int width) {
        this(params, width, 1);
    }

    /** A store whose levels 0..k hold {@code slots} runs each ({@link DeamortizedLog#SLOTS}); C holds n vectors. */
    public MemoryLevelStore(CodeParameters params, int width, int slots) {
        if (width <= 0 || slots <= 0) {
            throw new IllegalArgumentException("width and slots must be positive: " + width + ", " + slots);
        }
        this.params = params;
        this.width = width;
        this.slots = slots;
        this.levels = new int[params.k() + 2][2][][];
        this.present = new boolean[params.k() + 2][2][];
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        if (!contains(level, part, index)) {
            throw new IllegalStateException("no vector " + index + " in " + part + " of level " + level);
        }
        System.arraycopy(levels[level][part.ordinal()][index], 0, into, 0, width);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, store width " + width);
        }
        int[][] vectors = vectors(level, part);
        if (vectors[index] == null) {
            vectors[index] = new int[width];
        }
        System.arraycopy(vector, 0, vectors[index], 0, width);
        present[level][part.ordinal()][index] = true;
    }

    @Override
    public void clear(int level) {
        params.partSize(level); // validates
        for (boolean[] flags : present[level]) {
            if (flags != null) {
                Arrays.fill(flags, false);
            }
        }
    }

    @Override
    public void clear(int level, int from, int count) {
        for (Part part : Part.values()) {
            vectors(level, part);
            Arrays.fill(present[level][part.ordinal()], from, from + count, false);
        }
    }

    /** Whether the part holds vector {@code index}. */
    public boolean contains(int level, Part part, int index) {
        vectors(level, part);
        return present[level][part.ordinal()][index];
    }

    /** Drops one vector, as a server that lost it would. */
    public void erase(int level, Part part, int index) {
        vectors(level, part);
        present[level][part.ordinal()][index] = false;
    }

    /** Copies of the part's vectors, null where none is stored. */
    public int[][] copy(int level, Part part) {
        int[][] vectors = vectors(level, part);
        boolean[] flags = present[level][part.ordinal()];
        int[][] out = new int[vectors.length][];
        for (int i = 0; i < vectors.length; i++) {
            out[i] = flags[i] ? vectors[i].clone() : null;
        }
        return out;
    }

    /** Whether both stores hold exactly the same vectors everywhere. */
    public boolean sameContents(MemoryLevelStore other) {
        if (other.levels.length != levels.length) {
            return false;
        }
        for (int level = 0; level < levels.length; level++) {
            for (Part part : Part.values()) {
                if (!Arrays.deepEquals(copy(level, part), other.copy(level, part))) {
                    return false;
                }
            }
        }
        return true;
    }

    private int[][] vectors(int level, Part part) {
        int size = params.partSize(level, slots);
        int p = part.ordinal();
        if (levels[level][p] == null) {
            levels[level][p] = new int[size][];
            present[level][p] = new boolean[size];
        }
        return levels[level][p];
    }
}

package io.coffer.por.code;

import java.util.Arrays;

/** A {@link LevelStore} in memory: what tests use, and a reference for the server's and client's stores. */
public final class MemoryLevelStore implements LevelStore {
    private final CodeParameters params;
    private final int width;
    private final int slots;
    private final int[][][][] levels; // [level][part][index] -> vector, null where nothing is stored

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
        this.levels = new int[params.k() + 2][][][];
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        int[] vector = vectors(level, part)[index];
        if (vector == null) {
            throw new IllegalStateException("no vector " + index + " in " + part + " of level " + level);
        }
        System.arraycopy(vector, 0, into, 0, width);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, store width " + width);
        }
        int[][] vectors = vectors(level, part);
        if (vectors[index] == null) {
            vectors[index] = vector.clone();
        } else {
            System.arraycopy(vector, 0, vectors[index], 0, width);
        }
    }

    @Override
    public void clear(int level) {
        params.partSize(level); // validates
        levels[level] = null;
    }

    @Override
    public void clear(int level, int from, int count) {
        for (Part part : Part.values()) {
            Arrays.fill(vectors(level, part), from, from + count, null);
        }
    }

    /** Whether the part holds vector {@code index}. */
    public boolean contains(int level, Part part, int index) {
        int[][][] parts = levels[level];
        return parts != null && parts[part.ordinal()] != null && parts[part.ordinal()][index] != null;
    }

    /** Drops one vector, as a server that lost it would. */
    public void erase(int level, Part part, int index) {
        vectors(level, part)[index] = null;
    }

    /** Copies of the part's vectors, null where none is stored. */
    public int[][] copy(int level, Part part) {
        int[][] vectors = vectors(level, part);
        int[][] out = new int[vectors.length][];
        for (int i = 0; i < vectors.length; i++) {
            out[i] = vectors[i] == null ? null : vectors[i].clone();
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
        int size = level == params.cLevel() ? params.partSize(level) : params.partSize(level) * slots;
        if (levels[level] == null) {
            levels[level] = new int[2][][];
        }
        int[][][] parts = levels[level];
        if (parts[part.ordinal()] == null) {
            parts[part.ordinal()] = new int[size][];
        }
        return parts[part.ordinal()];
    }
}

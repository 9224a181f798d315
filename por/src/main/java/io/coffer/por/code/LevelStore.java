package io.coffer.por.code;

/**
 * Where the code vectors of the hierarchical log (levels 0..k) and of C (level k + 1) live: the PoR server backs it
 * with block storage, the client with the homomorphic checksums it simulates the rebuilds over, and tests with memory
 * ({@link MemoryLevelStore}). Every vector has {@link #width()} elements in [0, p). Part {@code part} of level
 * {@code level} holds {@link CodeParameters#partSize} vectors, indexed from 0.
 *
 * <p>The algorithms only read vectors they wrote since the last {@link #clear} of that level (or run).
 * {@link HierarchicalLog} visits indices in ascending order within each pass, so a store may read ahead and write
 * behind; {@link DeamortizedLog} touches a few vectors of each level per write.
 */
public interface LevelStore {
    /** The number of elements per vector. */
    int width();

    /** Copies vector {@code index} of {@code part} of {@code level} into {@code into} (length {@link #width()}). */
    void read(int level, Part part, int index, int[] into);

    /** Stores a copy of {@code vector} (length {@link #width()}) as vector {@code index} of the part. */
    void write(int level, Part part, int index, int[] vector);

    /**
     * Hands vector {@code index} of the part over to the caller, who may change it: returns an array that holds it and
     * that the caller now owns. The store no longer holds the vector. A store of arrays returns its own and keeps
     * {@code spare} (length {@link #width()}) in its place, for a later write; this default reads a copy into
     * {@code spare} and returns it. {@link HierarchicalLog}'s HAdd takes only vectors of levels it clears at its end.
     */
    default int[] take(int level, Part part, int index, int[] spare) {
        read(level, part, index, spare);
        return spare;
    }

    /**
     * Stores {@code vector} as vector {@code index} of the part, and returns an array of {@link #width()} elements
     * that the caller now owns instead. A store of arrays keeps {@code vector} itself (the caller no longer uses it)
     * and returns the array it held for that index; this default stores a copy and returns {@code vector}.
     */
    default int[] keep(int level, Part part, int index, int[] vector) {
        write(level, part, index, vector);
        return vector;
    }

    /** Forgets both parts of {@code level}: its vectors are no longer part of the code. */
    void clear(int level);

    /**
     * Forgets vectors from..from + count - 1 of both parts of {@code level} (one run of a {@link DeamortizedLog}).
     * The log never reads them again before writing them, so a store that cannot free part of a level may keep them,
     * which is what this default does.
     */
    default void clear(int level, int from, int count) {}

    /**
     * Stores both parts of {@code level} as vectors that are zero but for element {@code position}, which is
     * {@code x[i]} in X's vector i and {@code y[i]} in Y's (a C rebuild of a new store, whose U is zero but for its
     * tags). This default writes whole vectors; a store in files leaves the zeros as holes.
     */
    default void writeOneElement(int level, int position, int[] x, int[] y) {
        int[] v = new int[width()];
        for (Part part : Part.values()) {
            int[] values = part == Part.X ? x : y;
            for (int i = 0; i < values.length; i++) {
                v[position] = values[i];
                write(level, part, i, v);
            }
        }
    }
}

package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * H's levels 0..levels-1 in memory outside the Java heap: one direct buffer per vector, ints in the platform's order,
 * allocated at its first write and kept when cleared, so rebuilds do not reallocate. Outside the heap because the
 * gateway's vectors are 1.1 MB: as {@code int[]} they are G1 humongous objects, and with up to 141 MB of them always
 * live each later humongous allocation (an engine's 8 MiB pack) started a concurrent marking cycle (docs/BENCHMARKS.md,
 * porsrv). Not thread-safe, like the log that uses it.
 */
final class OffHeapLevels implements LevelStore {
    private final int width;
    private final int vectorBytes;
    private final IntBuffer[][][] vectors; // [level][part][index], allocated on first write
    private final boolean[][][] present; // [level][part][index]: whether the vector is part of the code

    /** Levels 0..levels-1 of one run slot each. */
    OffHeapLevels(CodeParameters params, int width, int levels) {
        this(params, width, levels, 1);
    }

    /** Levels 0..levels-1 of {@code slots} run slots each ({@link io.coffer.por.code.DeamortizedLog#SLOTS}). */
    OffHeapLevels(CodeParameters params, int width, int levels, int slots) {
        if (width <= 0 || levels < 0 || levels > params.k()) {
            throw new IllegalArgumentException("width " + width + ", levels " + levels + " of H with k = "
                    + params.k());
        }
        this.width = width;
        this.vectorBytes = Math.multiplyExact(width, Integer.BYTES);
        this.vectors = new IntBuffer[levels][2][];
        this.present = new boolean[levels][2][];
        for (int level = 0; level < levels; level++) {
            for (int p = 0; p < 2; p++) {
                vectors[level][p] = new IntBuffer[params.partSize(level, slots)];
                present[level][p] = new boolean[params.partSize(level, slots)];
            }
        }
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        stored(level, part, index).get(0, into, 0, width);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, store width " + width);
        }
        IntBuffer[] part0 = vectors[level][part.ordinal()];
        if (part0[index] == null) {
            part0[index] = ByteBuffer.allocateDirect(vectorBytes).order(ByteOrder.nativeOrder()).asIntBuffer();
        }
        part0[index].put(0, vector, 0, width);
        present[level][part.ordinal()][index] = true;
    }

    @Override
    public void clear(int level) {
        for (boolean[] flags : present[level]) {
            Arrays.fill(flags, false);
        }
    }

    @Override
    public void clear(int level, int from, int count) {
        for (boolean[] flags : present[level]) {
            Arrays.fill(flags, from, from + count, false);
        }
    }

    private IntBuffer stored(int level, Part part, int index) {
        if (contains(level, part, index)) {
            return vectors[level][part.ordinal()][index];
        }
        throw new IllegalStateException("no vector " + index + " in " + part + " of level " + level + " in memory");
    }

    /** Whether the part holds vector {@code index}. */
    boolean contains(int level, Part part, int index) {
        return present[level][part.ordinal()][index];
    }
}

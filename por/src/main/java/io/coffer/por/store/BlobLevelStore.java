package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Code vectors as objects of a {@link BlobStore}: vector i of a part of a level is
 * {@code <prefix><name>-<level>-<x|y>/<i>}, its elements as ints in the store's byte order (the record of
 * {@link FileLevelStore}).
 * One GET or PUT per vector the log touches; a put is durable when it returns. {@link #clear} keeps the objects: the
 * log never reads a cleared vector before writing it again. A new store's C is written in full (objects have no
 * holes), 2n PUTs.
 */
final class BlobLevelStore implements VectorStore {
    private final BlobStore objects;
    private final String prefix;
    private final CodeParameters params;
    private final int slots;
    private final int width;
    private final ByteOrder order;

    BlobLevelStore(BlobStore objects, String prefix, CodeParameters params, int width, ByteOrder order) {
        this(objects, prefix, params, width, order, 1);
    }

    /** A store of {@code slots} run slots per level of H (C: n vectors). */
    BlobLevelStore(BlobStore objects, String prefix, CodeParameters params, int width, ByteOrder order, int slots) {
        params.partSize(0, slots); // validates
        if (width <= 0) {
            throw new IllegalArgumentException("width must be positive: " + width);
        }
        this.objects = objects;
        this.prefix = prefix;
        this.params = params;
        this.slots = slots;
        this.width = width;
        this.order = order;
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        ByteBuffer.wrap(get(level, part, index, 0, width)).order(order).asIntBuffer().get(into, 0, width);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, store width " + width);
        }
        String name = name(level, part, index);
        ByteBuffer bytes = ByteBuffer.allocate(width * Integer.BYTES).order(order);
        bytes.asIntBuffer().put(vector);
        try {
            objects.put(name, BlobContent.of(bytes.array()));
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + name + " to " + objects.describe(), e);
        }
    }

    @Override
    public void clear(int level) {
        params.partSize(level, slots); // validates; the objects stay, see the class comment
    }

    @Override
    public int partSize(int level) {
        return params.partSize(level, slots);
    }

    /** Per vector, one ranged GET per range of nearby positions ({@link PositionRanges}). */
    @Override
    public int[][] readSlice(int level, Part part, int from, int count, int[] positions) {
        PositionRanges ranges = PositionRanges.of(positions, width);
        int[][] out = new int[count][positions.length];
        for (int v = 0; v < count; v++) {
            int i = from + v;
            int j = 0;
            for (int r = 0; r < ranges.count(); r++) {
                int first = ranges.firsts()[r];
                ByteBuffer bytes = ByteBuffer.wrap(get(level, part, i, first, ranges.lengths()[r])).order(order);
                int end = r + 1 < ranges.count() ? ranges.offsets()[r + 1] : positions.length;
                for (; j < end; j++) {
                    out[v][j] = bytes.getInt((positions[j] - first) * Integer.BYTES);
                }
            }
        }
        return out;
    }

    @Override
    public void force() {
        // every put is durable when it returns
    }

    @Override
    public void close() {
        // the caller owns the blob store
    }

    private byte[] get(int level, Part part, int index, int fromElement, int elements) {
        String name = name(level, part, index);
        try {
            return objects.read(name, (long) fromElement * Integer.BYTES, elements * Integer.BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + name + " from " + objects.describe(), e);
        }
    }

    private String name(int level, Part part, int index) {
        int size = params.partSize(level, slots);
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("vector " + index + " outside [0, " + size + ") of level " + level);
        }
        return prefix + "-" + level + "-" + (part == Part.X ? "x" : "y") + "/" + index;
    }
}

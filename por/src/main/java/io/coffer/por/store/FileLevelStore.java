package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link LevelStore} in files: one file per (level, part), {@code <prefix>-<level>-<x|y>.vectors}, of fixed-size
 * records (vector i at offset i * width * 4, its elements as ints in the store's byte order), read and written with
 * positional FileChannel I/O. A record goes through a direct buffer per part: in the platform's order (what a new
 * store records) the ints are copied, not swapped, and the channel reads and writes it without a copy of its own;
 * a store created before the order was recorded is big-endian and pays the swap. (H's smallest levels never reach
 * these files: {@link SmallLevelsInMemory}.) Memory: one record buffer per part, whatever the number of vectors.
 * {@link #clear} keeps the files: the log never reads a cleared
 * vector before writing it again. {@link #force} makes the writes durable. One thread per part at a time, as
 * {@link io.coffer.por.code.HierarchicalLog} uses it.
 */
final class FileLevelStore implements VectorStore {
    private final Path dir;
    private final String prefix;
    private final CodeParameters params;
    private final int slots;
    private final int width;
    private final int recordBytes;
    private final ByteOrder order;
    private final FileChannel[][] channels; // [level][part], opened on first use
    private final boolean[][] dirty;
    private final ByteBuffer[] buffers; // per part, direct
    private final IntBuffer[] ints; // views of buffers in the store's order

    /** A store in the platform's byte order (tests). */
    FileLevelStore(Path dir, String prefix, CodeParameters params, int width) {
        this(dir, prefix, params, width, ByteOrder.nativeOrder());
    }

    /** A store whose records are ints in {@code order}, one run slot per level. */
    FileLevelStore(Path dir, String prefix, CodeParameters params, int width, ByteOrder order) {
        this(dir, prefix, params, width, order, 1);
    }

    /** A store whose records are ints in {@code order}, {@code slots} run slots per level of H (C: n vectors). */
    FileLevelStore(Path dir, String prefix, CodeParameters params, int width, ByteOrder order, int slots) {
        params.partSize(0, slots); // validates
        if (width <= 0) {
            throw new IllegalArgumentException("width must be positive: " + width);
        }
        this.dir = dir;
        this.prefix = prefix;
        this.params = params;
        this.slots = slots;
        this.width = width;
        this.recordBytes = Math.multiplyExact(width, 4);
        this.order = order;
        this.channels = new FileChannel[params.k() + 2][2];
        this.dirty = new boolean[params.k() + 2][2];
        this.buffers = new ByteBuffer[2];
        this.ints = new IntBuffer[2];
        for (int p = 0; p < 2; p++) {
            buffers[p] = ByteBuffer.allocateDirect(recordBytes).order(order);
            ints[p] = buffers[p].asIntBuffer();
        }
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        FileChannel channel = channel(level, part, index);
        ByteBuffer buffer = buffers[part.ordinal()];
        buffer.clear();
        long position = (long) index * recordBytes;
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    throw new IllegalStateException("no vector " + index + " in " + part + " of level " + level);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + file(level, part), e);
        }
        IntBuffer view = ints[part.ordinal()];
        view.clear();
        view.get(into, 0, width);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (vector.length != width) {
            throw new IllegalArgumentException("vector of " + vector.length + " elements, store width " + width);
        }
        FileChannel channel = channel(level, part, index);
        ByteBuffer buffer = buffers[part.ordinal()];
        IntBuffer view = ints[part.ordinal()];
        view.clear();
        view.put(vector);
        buffer.clear();
        long position = (long) index * recordBytes;
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer, position + buffer.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + file(level, part), e);
        }
        dirty[level][part.ordinal()] = true;
    }

    /**
     * Truncates both part files of {@code level} to nothing, then writes element {@code position} of each vector
     * alone: the rest of every record is a hole that reads as zero and takes no disk (but for the page each written
     * element falls in).
     */
    @Override
    public void writeOneElement(int level, int position, int[] x, int[] y) {
        int size = params.partSize(level, slots);
        if (position < 0 || position >= width || x.length != size || y.length != size) {
            throw new IllegalArgumentException("element " + position + " of " + x.length + " and " + y.length
                    + " vectors, level " + level + " has " + size + " of width " + width);
        }
        ByteBuffer element = ByteBuffer.allocate(Integer.BYTES).order(order);
        for (Part part : Part.values()) {
            FileChannel channel = channel(level, part, 0);
            int[] values = part == Part.X ? x : y;
            try {
                channel.truncate(0);
                for (int i = 0; i < size; i++) {
                    element.clear();
                    element.putInt(values[i]).flip();
                    long position0 = (long) i * recordBytes + (long) position * Integer.BYTES;
                    while (element.hasRemaining()) {
                        channel.write(element, position0 + element.position());
                    }
                }
                if (position < width - 1) {
                    // the last record must reach its full length, so that reading it finds no end of file
                    element.clear();
                    element.putInt(0).flip();
                    long last = (long) size * recordBytes - Integer.BYTES;
                    while (element.hasRemaining()) {
                        channel.write(element, last + element.position());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot write " + file(level, part), e);
            }
            dirty[level][part.ordinal()] = true;
        }
    }

    @Override
    public void clear(int level) {
        params.partSize(level, slots); // validates; the files stay, see the class comment
    }

    @Override
    public int partSize(int level) {
        return params.partSize(level, slots);
    }

    /**
     * Elements {@code positions} (ascending) of vectors from .. from + count - 1 of one part, for decoding in slices:
     * per vector, one positional read per range of nearby positions ({@link PositionRanges}), so memory is the slice
     * and the longest range, and the bytes read are about the slice's.
     */
    @Override
    public int[][] readSlice(int level, Part part, int from, int count, int[] positions) {
        PositionRanges ranges = PositionRanges.of(positions, width);
        FileChannel channel = channel(level, part, from);
        channel(level, part, from + count - 1); // validates the range
        ByteBuffer span = ByteBuffer.allocate(ranges.longest() * Integer.BYTES).order(order);
        int[][] out = new int[count][positions.length];
        try {
            for (int v = 0; v < count; v++) {
                int i = from + v;
                int j = 0;
                for (int r = 0; r < ranges.count(); r++) {
                    int first = ranges.firsts()[r];
                    span.clear().limit(ranges.lengths()[r] * Integer.BYTES);
                    long position = (long) i * recordBytes + (long) first * Integer.BYTES;
                    while (span.hasRemaining()) {
                        if (channel.read(span, position + span.position()) < 0) {
                            throw new IllegalStateException("no vector " + i + " in " + part + " of level " + level);
                        }
                    }
                    int end = r + 1 < ranges.count() ? ranges.offsets()[r + 1] : positions.length;
                    for (; j < end; j++) {
                        out[v][j] = span.getInt((positions[j] - first) * Integer.BYTES);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + file(level, part), e);
        }
        return out;
    }

    /** Forces every file written since the last force to disk. */
    @Override
    public void force() throws IOException {
        for (int level = 0; level < channels.length; level++) {
            for (int p = 0; p < 2; p++) {
                if (dirty[level][p]) {
                    channels[level][p].force(false);
                    dirty[level][p] = false;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (FileChannel[] parts : channels) {
            for (FileChannel c : parts) {
                if (c != null) {
                    try {
                        c.close();
                    } catch (IOException e) {
                        failure = e;
                    }
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private FileChannel channel(int level, Part part, int index) {
        int size = params.partSize(level, slots);
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("vector " + index + " outside [0, " + size + ") of level " + level);
        }
        FileChannel channel = channels[level][part.ordinal()];
        if (channel == null) {
            try {
                channel = FileChannel.open(file(level, part), StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot open " + file(level, part), e);
            }
            channels[level][part.ordinal()] = channel;
        }
        return channel;
    }

    private Path file(int level, Part part) {
        return dir.resolve(prefix + "-" + level + "-" + (part == Part.X ? "x" : "y") + ".vectors");
    }
}

package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link LevelStore} in files: one file per (level, part), {@code <prefix>-<level>-<x|y>.vectors}, of fixed-size
 * records (vector i at offset i * width * 4, its elements as ints in the store's byte order).
 *
 * <p>A store opened {@code mapped} (H's live levels, whose merges read two records per part and level at every add)
 * reads its records through memory mappings of the files, a chunk of records ({@link #CHUNK_BYTES}) each, mapped once
 * the file covers the whole chunk (a mapping never extends a file): one copy from the page cache into the caller's
 * array and no system call, where a positional read copies twice (the kernel into a direct buffer, then into the
 * array). Writes stay positional: through a mapping each page written since the last writeback faults and is
 * dirtied by the file system one page at a time, which costs more than the kernel's copy (docs/BENCHMARKS.md,
 * porio2); Linux's page cache makes them visible to the mappings at once. A mapping lasts until the garbage collector
 * frees it (Java cannot unmap): a deleted file's disk space with it.
 *
 * <p>A positional read or write goes through a direct buffer per part: in the platform's order (what a new store
 * records) the ints are copied, not swapped, and the channel reads and writes it without a copy of its own; a store
 * created before the order was recorded is big-endian and pays the swap. (H's smallest levels never reach these
 * files: {@link SmallLevelsInMemory}.) Memory outside the page cache: one record buffer per part. {@link #clear}
 * keeps the files: the log never reads a cleared vector before writing it again. {@link #force} makes the writes
 * durable. One thread per part at a time, as {@link io.coffer.por.code.HierarchicalLog} uses it.
 */
final class FileLevelStore implements VectorStore {
    /**
     * At most this many bytes of records per mapping, rounded down to whole records: small enough that a growing file
     * soon covers a chunk, large enough for few mappings (a 7 GB level file: about a hundred).
     */
    static final long CHUNK_BYTES = 64L << 20;
    /** {@code false} turns the mappings off: every record by positional I/O (a comparison's baseline). */
    static final String MAPPED_PROPERTY = "coffer.por.levels-mapped";

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
    private final boolean mapped;
    private final int chunkRecords; // records per mapped chunk
    private final IntBuffer[][][] chunkInts; // [level][part][chunk]: views of mapped chunks in the store's order

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
        this(dir, prefix, params, width, order, slots, false);
    }

    /**
     * The same, its records read and written through mappings if {@code mapped} (unless {@link #MAPPED_PROPERTY} is
     * {@code false}).
     */
    FileLevelStore(Path dir, String prefix, CodeParameters params, int width, ByteOrder order, int slots,
            boolean mapped) {
        this(dir, prefix, params, width, order, slots,
                mapped && !"false".equals(System.getProperty(MAPPED_PROPERTY)) ? CHUNK_BYTES : 0);
    }

    /** The same, mapped in chunks of at most {@code chunkBytes} (whole records, at least one), or not if 0. */
    FileLevelStore(Path dir, String prefix, CodeParameters params, int width, ByteOrder order, int slots,
            long chunkBytes) {
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
        if (chunkBytes < 0 || chunkBytes > CHUNK_BYTES) {
            throw new IllegalArgumentException("chunk bytes must be in [0, " + CHUNK_BYTES + "]: " + chunkBytes);
        }
        this.mapped = chunkBytes > 0;
        this.chunkRecords = (int) Math.max(1, chunkBytes / recordBytes);
        this.chunkInts = new IntBuffer[params.k() + 2][2][];
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        IntBuffer chunk = mapping(level, part, index);
        if (chunk != null) {
            try {
                chunk.get(index % chunkRecords * width, into, 0, width);
            } catch (InternalError e) { // the JVM's answer to SIGBUS: an I/O error, or a file cut under the mapping
                throw new UncheckedIOException(new IOException("PoR storage: cannot read " + file(level, part), e));
            }
            return;
        }
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
            unmap(level, part); // their pages past the new end must not be touched again
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
        for (int level = 0; level < channels.length; level++) { // the garbage collector unmaps them
            unmap(level, Part.X);
            unmap(level, Part.Y);
        }
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

    /**
     * The view of the mapped chunk that holds record {@code index}, mapped now if the file covers the chunk; null if it
     * does not yet (the record is read by positional I/O) or the store is not mapped.
     */
    private IntBuffer mapping(int level, Part part, int index) {
        FileChannel channel = channel(level, part, index); // validates the index
        if (!mapped) {
            return null;
        }
        int p = part.ordinal();
        int chunk = index / chunkRecords;
        if (chunkInts[level][p] == null) {
            int count = (params.partSize(level, slots) + chunkRecords - 1) / chunkRecords;
            chunkInts[level][p] = new IntBuffer[count];
        }
        IntBuffer view = chunkInts[level][p][chunk];
        if (view != null) {
            return view;
        }
        int first = chunk * chunkRecords;
        long start = (long) first * recordBytes;
        long bytes = (long) Math.min(chunkRecords, params.partSize(level, slots) - first) * recordBytes;
        try {
            if (channel.size() < start + bytes) {
                return null;
            }
            MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_ONLY, start, bytes);
            mapping.order(order);
            view = mapping.asIntBuffer();
            chunkInts[level][p][chunk] = view;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot map " + file(level, part), e);
        }
        return view;
    }

    /**
     * Forgets the part's mappings (before a truncation): Java cannot unmap them, the garbage collector does once they
     * are unreachable.
     */
    private void unmap(int level, Part part) {
        int p = part.ordinal();
        chunkInts[level][p] = null;
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

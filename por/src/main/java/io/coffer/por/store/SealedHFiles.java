package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The sealed checksums of H, one per vector: level l's in {@code h-<l>.sealed}, part X's 3 * 2^l records (one per
 * position of its {@link DeamortizedLog#SLOTS} run slots), then part Y's, 48 bytes each, written in place as the
 * deamortised adds write their vectors (a few per level and add) and made durable at {@link #force}. Levels below
 * {@code memoryLevels} are kept in memory only, as their vectors are ({@link SmallLevelsInMemory}), until
 * {@link #spill}. A record never written (a hole, or past the file's end) reads as null.
 */
final class SealedHFiles implements AutoCloseable {
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;

    private final Path dir;
    private final String prefix;
    private final CodeParameters hParams;
    private final byte[][][][] memory; // [level][part][position], levels below memoryLevels
    private final FileChannel[] channels; // per level, opened on first use
    private final boolean[] dirty;

    SealedHFiles(Path dir, CodeParameters hParams, int memoryLevels) {
        this(dir, "h", hParams, memoryLevels);
    }

    /** With the files named {@code <prefix>-<l>.sealed} (a paced window's frozen H: {@code hf}). */
    SealedHFiles(Path dir, String prefix, CodeParameters hParams, int memoryLevels) {
        this.dir = dir;
        this.prefix = prefix;
        this.hParams = hParams;
        this.memory = new byte[memoryLevels][][][];
        this.channels = new FileChannel[hParams.k() + 1];
        this.dirty = new boolean[hParams.k() + 1];
    }

    /** Positions per part of {@code level}. */
    int size(int level) {
        return hParams.partSize(level, DeamortizedLog.SLOTS);
    }

    byte[] get(int level, Part part, int position) {
        check(level, position);
        if (level < memory.length && memory[level] != null && memory[level][part.ordinal()][position] != null) {
            return memory[level][part.ordinal()][position].clone();
        }
        ByteBuffer b = ByteBuffer.allocate(SEALED); // zeros past the file's end: never written
        PositionalIo.readFully(channel(level), b, record(level, part, position), file(level).toString());
        byte[] sealed = b.array();
        return Arrays.equals(sealed, new byte[SEALED]) ? null : sealed;
    }

    void set(int level, int position, byte[] x, byte[] y) {
        check(level, position);
        if (x.length != SEALED || y.length != SEALED) {
            throw new IllegalArgumentException("a sealed checksum is " + SEALED + " bytes");
        }
        if (level < memory.length) {
            if (memory[level] == null) {
                memory[level] = new byte[2][size(level)][];
            }
            memory[level][0][position] = x.clone();
            memory[level][1][position] = y.clone();
            return;
        }
        write(level, Part.X, position, x);
        write(level, Part.Y, position, y);
    }

    /** Forgets the checksums in memory; those in files stay, sealed under times that no longer come (a new epoch). */
    void clear() {
        Arrays.fill(memory, null);
    }

    /** Writes the levels in memory to their files (forced at the next {@link #force}) and forgets them here. */
    void spill() {
        for (int level = 0; level < memory.length; level++) {
            if (memory[level] != null) {
                for (Part part : Part.values()) {
                    byte[][] sealed = memory[level][part.ordinal()];
                    for (int position = 0; position < sealed.length; position++) {
                        if (sealed[position] != null) {
                            write(level, part, position, sealed[position]);
                        }
                    }
                }
                memory[level] = null;
            }
        }
    }

    void force() throws IOException {
        for (int level = 0; level < channels.length; level++) {
            if (dirty[level]) {
                channels[level].force(false);
                dirty[level] = false;
            }
        }
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (FileChannel channel : channels) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException e) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void write(int level, Part part, int position, byte[] sealed) {
        PositionalIo.writeFully(channel(level), ByteBuffer.wrap(sealed), record(level, part, position),
                file(level).toString());
        dirty[level] = true;
    }

    private long record(int level, Part part, int position) {
        return ((long) part.ordinal() * size(level) + position) * SEALED;
    }

    private void check(int level, int position) {
        if (level < 0 || level > hParams.k() || position < 0 || position >= size(level)) {
            throw new IllegalArgumentException("no sealed checksum " + position + " in level " + level + " of H");
        }
    }

    private FileChannel channel(int level) {
        if (channels[level] == null) {
            try {
                channels[level] = FileChannel.open(file(level), StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot open " + file(level), e);
            }
        }
        return channels[level];
    }

    private Path file(int level) {
        return dir.resolve(prefix + "-" + level + ".sealed");
    }
}

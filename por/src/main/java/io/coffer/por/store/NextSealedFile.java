package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code c.next.sealed} of a window that takes the client's part (docs/POR.md, "The client's part paced"): the next
 * C's 2n sealed checksums in {@code c.sealed}'s layout (X's n records, then Y's), made at the freeze with every
 * position empty (all-zero records, a sparse file) and written a part at a time as the client uploads them, each part
 * forced before its answer. A position is in once both its records are not all zero. How many are still empty is
 * counted at open and kept up to date, so the switch is refused while any is; memory stays independent of n (a part's
 * old records are read back to count, not a bitmap).
 */
final class NextSealedFile implements AutoCloseable {
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;
    private static final int CHUNK_RECORDS = 1 << 12;

    private final Path file;
    private final int n;
    private final FileChannel channel;
    private int missing;

    private NextSealedFile(Path file, int n, FileChannel channel) {
        this.file = file;
        this.n = n;
        this.channel = channel;
    }

    /** Writes {@code file} with its 2n records all empty (a sparse file of that length), forced and renamed. */
    static void createEmpty(Path file, int n) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try (RandomAccessFile out = new RandomAccessFile(tmp.toFile(), "rw")) {
            out.setLength(2L * n * SEALED);
            out.getChannel().force(true);
        }
        Durable.replace(tmp, file);
    }

    /** Opens {@code file} and counts its empty positions (a read of its 2n records in chunks). */
    static NextSealedFile open(Path file, int n) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        NextSealedFile next = new NextSealedFile(file, n, channel);
        try {
            if (channel.size() != 2L * n * SEALED) {
                throw new IOException("PoR storage: " + file + " holds " + channel.size() + " bytes, not the "
                        + 2L * n * SEALED + " of 2 * " + n + " sealed checksums");
            }
            for (int from = 0; from < n; from += CHUNK_RECORDS) {
                next.missing += next.emptyPositions(from, Math.min(CHUNK_RECORDS, n - from));
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return next;
    }

    /** Positions of the next C still without their sealed checksums. */
    int missing() {
        return missing;
    }

    /**
     * Writes the sealed checksums of positions [from, from + x.length) of X and Y (each {@link #SEALED} bytes: the
     * server has checked them; an all-zero one leaves its position empty) and forces them before it returns.
     */
    void set(int from, byte[][] x, byte[][] y) {
        try {
            int wasEmpty = emptyPositions(from, x.length);
            write(x, from);
            write(y, (long) n + from);
            channel.force(false);
            int stillEmpty = 0;
            for (int i = 0; i < x.length; i++) {
                if (zero(x[i], 0) || zero(y[i], 0)) {
                    stillEmpty++;
                }
            }
            missing += stillEmpty - wasEmpty;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write the next C's sealed checksums to " + file, e);
        }
    }

    private void write(byte[][] records, long record) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(records.length * SEALED);
        for (byte[] r : records) {
            b.put(r);
        }
        b.flip();
        PositionalIo.writeFully(channel, b, record * SEALED, file.toString());
    }

    /** How many of positions [from, from + count) lack the record of X or of Y. */
    private int emptyPositions(int from, int count) throws IOException {
        byte[] x = read(from, count);
        byte[] y = read((long) n + from, count);
        int empty = 0;
        for (int i = 0; i < count; i++) {
            if (zero(x, i) || zero(y, i)) {
                empty++;
            }
        }
        return empty;
    }

    private byte[] read(long record, int count) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(count * SEALED);
        PositionalIo.readFully(channel, b, record * SEALED, file.toString());
        return b.array();
    }

    private static boolean zero(byte[] records, int i) {
        for (int j = i * SEALED; j < (i + 1) * SEALED; j++) {
            if (records[j] != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

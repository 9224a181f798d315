package io.coffer.por.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link DecodeSpool} in a file of fixed-size records (row r at r * width * 4, ints in the platform's byte order),
 * so a decode of many blocks (30 % of a large store) costs disk, not heap. The file is scratch (created empty,
 * deleted on close, and a leftover from a crash is overwritten by the next one), so its order need not be recorded.
 */
final class FileDecodeSpool implements DecodeSpool {
    private final Path file;
    private final FileChannel channel;
    private final int rows;
    private final int width;

    FileDecodeSpool(Path file, int rows, int width) {
        if (rows < 0 || width < 1) {
            throw new IllegalArgumentException("a spool of " + rows + " rows of " + width + " elements");
        }
        this.file = file;
        this.rows = rows;
        this.width = width;
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot create " + file, e);
        }
    }

    @Override
    public void put(int row, int from, int[] elements, int offset, int length) {
        check(row);
        if (from < 0 || length < 0 || from + length > width) {
            throw new IllegalArgumentException("elements " + from + ".." + (from + length) + " of a row of " + width);
        }
        ByteBuffer bytes = ByteBuffer.allocate(length * Integer.BYTES).order(ByteOrder.nativeOrder());
        bytes.asIntBuffer().put(elements, offset, length);
        long position = ((long) row * width + from) * Integer.BYTES;
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes, position + bytes.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + file, e);
        }
    }

    @Override
    public int[] row(int row) {
        check(row);
        ByteBuffer bytes = ByteBuffer.allocate(width * Integer.BYTES).order(ByteOrder.nativeOrder());
        long position = (long) row * width * Integer.BYTES;
        try {
            while (bytes.hasRemaining()) {
                if (channel.read(bytes, position + bytes.position()) < 0) {
                    throw new IllegalStateException("row " + row + " of " + file + " was never written");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + file, e);
        }
        int[] out = new int[width];
        bytes.flip().asIntBuffer().get(out);
        return out;
    }

    @Override
    public void close() {
        try {
            channel.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot delete " + file, e);
        }
    }

    private void check(int row) {
        if (row < 0 || row >= rows) {
            throw new IllegalArgumentException("row " + row + " outside [0, " + rows + ")");
        }
    }
}

package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A level's sealed checksums in one file (C's {@code c.sealed}, a paced window's {@code c.next.sealed}): X, then Y. */
final class SealedLevelFile {
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;
    private static final int CHUNK = 1 << 16;

    private SealedLevelFile() {
    }

    static byte[][] read(Path file, Part part, int size) {
        byte[][] out = new byte[size][];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer all = ByteBuffer.allocate(Math.multiplyExact(size, SEALED));
            PositionalIo.readFully(channel, all, (long) part.ordinal() * size * SEALED, file.toString());
            all.flip();
            for (int i = 0; i < size; i++) {
                out[i] = new byte[SEALED];
                all.get(out[i]);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + file, e);
        }
    }

    static byte[] read(Path file, Part part, int size, int index) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("checksum " + index + " outside [0, " + size + ")");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(SEALED);
            PositionalIo.readFully(channel, b, ((long) part.ordinal() * size + index) * SEALED, file.toString());
            return b.array();
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + file, e);
        }
    }

    /** Writes a level's sealed checksums to a new file, forced, then renamed over the old one. */
    static void write(Path file, int size, byte[][] x, byte[][] y) {
        if (x.length != size || y.length != size) {
            throw new IllegalArgumentException("expected " + size + " sealed checksums per part");
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer chunk = ByteBuffer.allocate(Math.max(SEALED, CHUNK / SEALED * SEALED));
            long position = 0;
            for (byte[][] part : new byte[][][] {x, y}) {
                for (byte[] s : part) {
                    if (chunk.remaining() < SEALED) {
                        chunk.flip();
                        position += PositionalIo.writeFully(out, chunk, position, tmp.toString());
                        chunk.clear();
                    }
                    chunk.put(s);
                }
            }
            chunk.flip();
            PositionalIo.writeFully(out, chunk, position, tmp.toString());
            out.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + tmp, e);
        }
        try {
            Durable.replace(tmp, file);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot replace " + file, e);
        }
    }
}

package io.coffer.por.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Whole reads and writes at a file position, for the server's files read and written in place. */
final class PositionalIo {
    private PositionalIo() {}

    /**
     * Fills {@code into} from {@code position} on; past the file's end it stops, leaving the rest as it was (zeros in
     * a new buffer: a record never written).
     */
    static void readFully(FileChannel channel, ByteBuffer into, long position, String name) {
        try {
            while (into.hasRemaining()) {
                if (channel.read(into, position + into.position()) < 0) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + name, e);
        }
    }

    /** Writes what remains of {@code from} at {@code position}; returns the bytes written. */
    static int writeFully(FileChannel channel, ByteBuffer from, long position, String name) {
        int start = from.position();
        try {
            while (from.hasRemaining()) {
                channel.write(from, position + from.position() - start);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + name, e);
        }
        return from.position() - start;
    }
}

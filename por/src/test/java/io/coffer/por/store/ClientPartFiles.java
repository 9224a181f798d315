package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.server.PorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * What the durable client's-part tests share: a server the client keeps across a kill and a reopen (its calls go to
 * whichever server is current, as a reconnecting client's do), a kill between a part's write and its answer, and the
 * window's files edited as a torn write or a dishonest server leaves them.
 */
final class ClientPartFiles {
    static final int SEALED = ChecksumSealer.SEALED_BYTES;

    /** The server now behind {@link #proxy}. */
    volatile PorServer target;
    /** Called instead of answering the next NEXT_SEALED_C, once it is written and forced (null: none). */
    private volatile Consumer<int[]> afterNextPart;

    ClientPartFiles(PorServer target) {
        this.target = target;
    }

    /** The server as the client reaches it: every call goes to {@link #target}. */
    PorServer proxy() {
        return (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(), new Class<?>[] {PorServer.class},
                (p, method, args) -> {
                    Object answer;
                    try {
                        answer = method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    Consumer<int[]> then = afterNextPart;
                    if (then != null && method.getName().equals("putNextSealedC")) {
                        afterNextPart = null;
                        then.accept(new int[] {(int) args[0], ((byte[][]) args[1]).length});
                        throw new UncheckedIOException(new IOException("the connection closed before the answer"));
                    }
                    return answer;
                });
    }

    /**
     * The next NEXT_SEALED_C is written and forced, then {@code kill} runs with its range (from, count) and the client
     * gets no answer (the connection closed), as a server killed between the part's force and its answer leaves it.
     */
    void killAfterTheNextPart(Consumer<int[]> kill) {
        afterNextPart = kill;
    }

    /** The sealed checksums of positions [from, from + count) of {@code part} (0: X, 1: Y) of c.next.sealed. */
    static void overwriteNextSealed(Path dir, int n, int part, int from, byte[][] records) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(records.length * SEALED);
        for (byte[] r : records) {
            b.put(r);
        }
        b.flip();
        try (FileChannel c = FileChannel.open(dir.resolve(PacedWindowFiles.NEXT_SEALED), StandardOpenOption.WRITE)) {
            c.write(b, ((long) part * n + from) * SEALED);
        }
    }

    /** The sealed checksums of positions [from, from + count) of {@code part} of c.next.sealed. */
    static byte[][] nextSealed(Path dir, int n, int part, int from, int count) throws IOException {
        byte[] all = Files.readAllBytes(dir.resolve(PacedWindowFiles.NEXT_SEALED));
        byte[][] out = new byte[count][SEALED];
        for (int i = 0; i < count; i++) {
            System.arraycopy(all, (int) (((long) part * n + from + i) * SEALED), out[i], 0, SEALED);
        }
        return out;
    }

    /**
     * Replaces U's sealed checksum kept in the copy record of {@code index} by {@code sealed}, the record's CRC made
     * to match (what a server that keeps another value aside would hold): each record is the index, the tagged vector
     * of {@code width} ints, the sealed checksum and a CRC-32C.
     */
    static void replaceKeptSealed(Path dir, int width, int index, byte[] sealed) throws IOException {
        Path file = dir.resolve(PacedWindowFiles.COPIES);
        byte[] all = Files.readAllBytes(file);
        int record = 4 + 4 * width + SEALED + 4;
        for (int at = 0; at + record <= all.length; at += record) {
            if (ByteBuffer.wrap(all, at, 4).getInt() == index) {
                System.arraycopy(sealed, 0, all, at + 4 + 4 * width, SEALED);
                CRC32C crc = new CRC32C();
                crc.update(all, at, record - 4);
                ByteBuffer.wrap(all, at + record - 4, 4).putInt((int) crc.getValue());
                Files.write(file, all);
                return;
            }
        }
        throw new IllegalStateException("no copy of " + index + " in " + file);
    }

    /** Whether every byte of the records is zero (positions still empty). */
    static boolean allZero(byte[][] records) {
        for (byte[] r : records) {
            for (byte v : r) {
                if (v != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The snapshot of U's sealed checksums the server serves now, all n. */
    static List<byte[]> snapshot(PorServer server, int n) {
        return server.snapshotSealedU(0, n);
    }
}

package io.coffer.sdk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock an engine holds on its data directory while it is open: an OS lock ({@link FileChannel#tryLock})
 * on {@code coffer.lock} in it, so that a second engine (another {@code serve}, or {@code fsck}, {@code gc} or
 * {@code reindex} while the gateway runs) is refused rather than working on the same master key, SQLite file and
 * blobs. The OS drops the lock when the process ends, however it ends; the file itself stays.
 */
final class DataDirectoryLock implements AutoCloseable {
    static final String FILE_NAME = "coffer.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock, or fails naming the directory (and the holder's process id when it wrote one). */
    static DataDirectoryLock acquire(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this process already
            }
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw new IllegalStateException("data directory " + directory.toAbsolutePath() + " is in use by "
                        + (holder.isEmpty() ? "another Coffer process" : "Coffer process " + holder) + " (it holds "
                        + FILE_NAME + "); stop it first");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                    0);
            return new DataDirectoryLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock data directory " + directory.toAbsolutePath(), e);
        }
    }

    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(32);
        channel.read(b, 0);
        return new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel below releases it too
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // nothing held any more
            }
        }
    }
}

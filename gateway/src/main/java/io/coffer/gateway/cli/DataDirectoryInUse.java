package io.coffer.gateway.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether a process (a running gateway, another verb) holds the engine's lock on a data directory
 * ({@code DATA/coffer.lock}, the sdk's DataDirectoryLock), tested by taking it for a moment: the verbs that can ask a
 * running gateway instead use it to choose.
 */
final class DataDirectoryInUse {
    static final String LOCK_FILE = "coffer.lock";

    private DataDirectoryInUse() {
    }

    static boolean test(Path dataDir) {
        Path file = dataDir.resolve(LOCK_FILE);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                return true; // held in this process
            }
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (IOException e) {
            return false; // cannot tell: opening the engine will say what is wrong
        }
    }
}

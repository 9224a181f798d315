package io.coffer.por.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Atomic file replacement that survives a crash: rename, then force the directory entry. */
final class Durable {
    private static final Logger LOG = LoggerFactory.getLogger(Durable.class);

    private Durable() {
    }

    /** Renames {@code tmp} (already forced) over {@code file} atomically and forces the directory. */
    static void replace(Path tmp, Path file) throws IOException {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(file.toAbsolutePath().getParent());
    }

    /** Forces the directory entry of a rename to disk (where the platform allows opening a directory). */
    static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            LOG.debug("cannot force directory {}: {}", dir, e.toString());
        }
    }
}

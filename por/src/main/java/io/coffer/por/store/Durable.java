package io.coffer.por.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
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

    /**
     * Writes {@code content} followed by its CRC-32C (u32, big-endian) as the whole of {@code file}: to a temporary
     * sibling {@code <file>.tmp}, forced, then renamed over it. A crash leaves the old file, or the new one whole.
     */
    static void writeChecked(Path file, byte[] content) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(content);
        ByteBuffer b = ByteBuffer.allocate(content.length + 4).put(content).putInt((int) crc.getValue()).flip();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (b.hasRemaining()) {
                out.write(b);
            }
            out.force(true);
        }
        replace(tmp, file);
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

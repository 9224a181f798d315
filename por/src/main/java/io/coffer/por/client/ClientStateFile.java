package io.coffer.por.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Persists a {@link ClientState} atomically: written to a sibling temporary file, forced to disk, then renamed over
 * the old one, so a crash leaves either the old state or the new one, never a mix. The state holds the master key,
 * so on POSIX file systems the file is created readable and writable by its owner only.
 */
public final class ClientStateFile {
    private final Path path;
    /**
     * The attributes the temporary file is created with, found at the first save and kept: the directory's file store
     * (on Linux the JDK reads the mount table to find it) does not change while this file is in use, and a store saves
     * at every put. Not at construction: a load-only use needs none, and the directory may not exist yet.
     */
    private volatile FileAttribute<?>[] createAttributes;

    public ClientStateFile(Path path) {
        this.path = path;
    }

    public void save(ClientState state) {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try {
            Files.deleteIfExists(tmp); // a leftover could carry wider permissions
            try (FileChannel channel = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), createAttributes(tmp))) {
                ByteBuffer bytes = ByteBuffer.wrap(state.toBytes());
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write PoR client state " + tmp, e);
        }
        try {
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system cannot rename atomically", e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace PoR client state " + path, e);
        }
    }

    /** Owner-only on a POSIX file system; where the file system has no POSIX permissions, none. */
    private FileAttribute<?>[] createAttributes(Path file) throws IOException {
        FileAttribute<?>[] attributes = createAttributes;
        if (attributes == null) {
            Path dir = file.toAbsolutePath().getParent();
            attributes = !Files.getFileStore(dir).supportsFileAttributeView("posix") ? new FileAttribute<?>[0]
                    : new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------"))};
            createAttributes = attributes;
        }
        return attributes;
    }

    public ClientState load() {
        try {
            long size = Files.size(path);
            if (size != ClientState.BYTES && size != ClientState.BYTES_NO_FLAGS
                    && size != ClientState.BYTES_WITH_SNAPSHOT) {
                throw new IllegalArgumentException("PoR client state " + path + " is not " + ClientState.BYTES
                        + " bytes");
            }
            return ClientState.fromBytes(Files.readAllBytes(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read PoR client state " + path, e);
        }
    }
}

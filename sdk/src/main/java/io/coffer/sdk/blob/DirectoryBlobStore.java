package io.coffer.sdk.blob;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BlobStore} that keeps each blob as a file under a root directory.
 *
 * <p>Layout: the blob {@code p/ab12} is the file {@code <root>/p/ab12}; the '/'-separated parts of a name are
 * directories, created on demand (mode 0700 where POSIX permissions are supported; files are 0600). Because a path
 * can be a file or a directory but not both, this store cannot hold both {@code p/a} and {@code p/a/b}: the second
 * put fails with an {@link IOException}. On top of the contract's naming rules it rejects, with
 * {@link IllegalArgumentException}, names with an empty or "." part (such as {@code a//b}, {@code a/} or {@code ./a}),
 * parts longer than {@value #MAX_PART_LENGTH} characters, and names under the reserved {@value #TEMP_DIR} directory.
 *
 * <p>Atomic, durable put: the bytes go to a fresh temporary file in {@code <root>/.tmp} (same filesystem), which is
 * fsynced, then renamed into place with {@link StandardCopyOption#ATOMIC_MOVE} (replacing any previous blob), and the
 * parent directory is fsynced; directories created on the way are fsynced into their parents. A reader therefore
 * sees the old blob or the new one, never a prefix; an open reader keeps reading the version it opened.
 *
 * <p>Crash leftovers: a crash mid-put can leave a temporary file in {@code .tmp}. Listings never look into
 * {@code .tmp}, so leftovers are invisible; opening a store deletes those older than {@link #STALE_TEMP_AGE} (younger
 * ones may belong to a put in progress in another process sharing the root). Empty directories left behind by
 * {@link #delete} are kept.
 */
public final class DirectoryBlobStore implements BlobStore {

    /** The directory under the root that holds temporary files of puts in progress. */
    public static final String TEMP_DIR = ".tmp";
    /** Temporary files older than this are deleted when a store is opened. */
    public static final Duration STALE_TEMP_AGE = Duration.ofMinutes(10);

    static final int MAX_PART_LENGTH = 255;
    private static final String TEMP_PREFIX = "put-";
    private static final String TEMP_SUFFIX = ".part";
    private static final String DESCRIPTION_PREFIX = "directory:";
    private static final String SEPARATOR = "/";
    private static final String POSIX_VIEW = "posix";
    private static final int COPY_BUFFER = 256 * 1024;
    /**
     * The most one read or write call moves between a heap array and a file. The JDK stages heap I/O through a
     * per-thread temporary direct buffer as large as the call; an 8 MiB pack in one call allocated and zeroed a fresh
     * 8 MiB direct buffer most of the time (a third of the pack-upload CPU), slices of 1 MiB reuse the cached one.
     */
    private static final int IO_SLICE = 1 << 20;
    /**
     * The most one ranged read moves per call: the JDK's temporary buffer and the slice of the caller's array it is
     * copied into then both stay in a core's L2 cache (1 MiB here), where 1 MiB slices streamed through memory twice.
     */
    private static final int READ_SLICE = 256 << 10;
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryBlobStore.class);

    private final Path root;
    private final Path tempDir;
    private final boolean posix;

    /**
     * Opens (creating if needed) a store rooted at {@code root}, and deletes temporary files older than
     * {@link #STALE_TEMP_AGE} left by crashed puts.
     */
    public DirectoryBlobStore(Path root) throws IOException {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
        this.posix = this.root.getFileSystem().supportedFileAttributeViews().contains(POSIX_VIEW);
        this.tempDir = this.root.resolve(TEMP_DIR);
        Files.createDirectories(this.root, dirAttributes());
        createDirectory(tempDir);
        removeStaleTempFiles(Instant.now().minus(STALE_TEMP_AGE));
    }

    /** The root directory, absolute and normalized. */
    public Path root() {
        return root;
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        Path target = pathOf(name);
        Objects.requireNonNull(content, "content");
        long declared = content.length();
        Path temp = Files.createTempFile(tempDir, TEMP_PREFIX, TEMP_SUFFIX, fileAttributes());
        boolean moved = false;
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                long written = write(content, out, declared);
                if (written != declared) {
                    throw new IOException("content of blob " + name + " has " + written
                            + " bytes, not its declared length " + declared);
                }
                out.force(true);
            }
            createParents(target.getParent());
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            moved = true;
            syncDirectory(target.getParent());
        } finally {
            if (!moved) {
                deleteQuietly(temp);
            }
        }
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        BlobNames.checkGet(name, offset);
        Path path = pathOf(name);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new BlobNotFoundException(name);
        }
        try {
            long size = channel.size();
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new BlobNotFoundException(name);
            }
            long start = Math.min(offset, size);
            long remaining = length < 0 ? size - start : Math.min(length, size - start);
            channel.position(start);
            return new BoundedInputStream(Channels.newInputStream(channel), remaining);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        Path path = pathOf(name);
        BasicFileAttributes attrs = attributes(path);
        if (attrs == null || !attrs.isRegularFile()) {
            return Optional.empty();
        }
        return Optional.of(new BlobInfo(name, attrs.size(), attrs.lastModifiedTime().toInstant()));
    }

    @Override
    public void delete(String name) throws IOException {
        Path path = pathOf(name);
        BasicFileAttributes attrs = attributes(path);
        if (attrs != null && attrs.isRegularFile() && Files.deleteIfExists(path)) {
            syncDirectory(path.getParent());
        }
    }

    @Override
    public BlobListing list(String prefix) throws IOException {
        BlobNames.requireValidPrefix(prefix);
        int slash = prefix.lastIndexOf('/');
        String dirPart = slash < 0 ? "" : prefix.substring(0, slash);
        String leafPrefix = prefix.substring(slash + 1);
        if (!dirPart.isEmpty() && !isValidDirectoryPath(dirPart)) {
            return BlobListing.of(List.of());
        }
        Path start = dirPart.isEmpty() ? root : root.resolve(dirPart);
        String namePrefix = dirPart.isEmpty() ? "" : dirPart + SEPARATOR;
        return () -> new TreeIterator(start, namePrefix, leafPrefix);
    }

    @Override
    public String describe() {
        return DESCRIPTION_PREFIX + root;
    }

    /** The file a blob name maps to, after checking the name. */
    private Path pathOf(String name) {
        BlobNames.requireValid(name);
        if (!isValidDirectoryPath(name)) {
            throw new IllegalArgumentException("invalid blob name for a directory store: \"" + name + '"');
        }
        return root.resolve(name);
    }

    /** Whether every '/'-separated part is usable as a file name, and the first is not the temp directory. */
    private static boolean isValidDirectoryPath(String path) {
        String[] parts = path.split(SEPARATOR, -1);
        if (parts[0].equals(TEMP_DIR)) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.equals(".") || part.length() > MAX_PART_LENGTH) {
                return false;
            }
        }
        return true;
    }

    /** Writes the content straight from memory (in {@link #IO_SLICE} calls) when it is there, else streams it. */
    private static long write(BlobContent content, FileChannel out, long limit) throws IOException {
        ByteBuffer memory = content.inMemory();
        if (memory != null) {
            long n = memory.remaining();
            int end = memory.limit();
            while (memory.position() < end) {
                memory.limit((int) Math.min(end, (long) memory.position() + IO_SLICE));
                while (memory.hasRemaining()) {
                    out.write(memory);
                }
            }
            return n;
        }
        try (InputStream in = content.open()) {
            return copy(in, out, limit);
        }
    }

    /**
     * Reads the range with positional reads straight into the result, {@link #IO_SLICE} at a time: no stream, no
     * intermediate buffers (the engine's read path reads whole chunk runs this way).
     */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        readInto(name, offset, dst, dstOffset, length, n -> { });
    }

    /** Tells {@code progress} after each positional read ({@code READ_SLICE} at most). */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        BlobNames.checkGet(name, offset);
        Path path = pathOf(name);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buf = ByteBuffer.wrap(dst, dstOffset, length).slice();
            long pos = offset;
            while (buf.position() < length) {
                buf.limit((int) Math.min(length, (long) buf.position() + READ_SLICE));
                int n = channel.read(buf, pos);
                if (n < 0) {
                    throw new EOFException("blob " + name + " has " + buf.position() + " of " + length
                            + " bytes at offset " + offset);
                }
                pos += n;
                if (n > 0) {
                    progress.arrived(buf.position());
                }
            }
        } catch (NoSuchFileException e) {
            throw new BlobNotFoundException(name);
        } catch (IOException e) {
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new BlobNotFoundException(name);
            }
            throw e;
        }
    }

    private static long copy(InputStream in, FileChannel out, long limit) throws IOException {
        byte[] buffer = new byte[(int) Math.min(COPY_BUFFER, Math.max(limit, 1))];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            total += n;
            if (total > limit) {
                return total;
            }
            ByteBuffer bb = ByteBuffer.wrap(buffer, 0, n);
            while (bb.hasRemaining()) {
                out.write(bb);
            }
        }
        return total;
    }

    /**
     * Creates the missing folders, then fsyncs each parent that gained one once (not once per folder: a new store
     * gets 513 folders from the engine at its first start).
     */
    @Override
    public void prepareFolders(Collection<String> prefixes) throws IOException {
        Set<Path> grown = new LinkedHashSet<>();
        for (String prefix : prefixes) {
            if (!prefix.endsWith(SEPARATOR)) {
                throw new IllegalArgumentException("a folder prefix ends with '/': \"" + prefix + '"');
            }
            Path dir = pathOf(prefix.substring(0, prefix.length() - 1));
            Deque<Path> missing = new ArrayDeque<>();
            for (Path d = dir; !d.equals(root) && !Files.isDirectory(d); d = d.getParent()) {
                missing.push(d);
            }
            for (Path d : missing) {
                try {
                    Files.createDirectory(d, dirAttributes());
                    grown.add(d.getParent());
                } catch (FileAlreadyExistsException e) {
                    if (!Files.isDirectory(d)) {
                        throw e;
                    }
                }
            }
        }
        // deepest first, so that a folder's own entries are durable before its entry in its parent
        List<Path> parents = new ArrayList<>(grown);
        parents.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        for (Path parent : parents) {
            syncDirectory(parent);
        }
    }

    /** Creates {@code dir} and its missing ancestors up to the root, fsyncing each new one into its parent. */
    private void createParents(Path dir) throws IOException {
        if (dir.equals(root) || Files.isDirectory(dir)) {
            return;
        }
        createParents(dir.getParent());
        createDirectory(dir);
    }

    private void createDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, dirAttributes());
            syncDirectory(dir.getParent());
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }

    /** Makes a directory's entries durable; only possible (and needed) where directories can be opened: POSIX. */
    private void syncDirectory(Path dir) throws IOException {
        if (posix) {
            try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
                channel.force(true);
            }
        }
    }

    private FileAttribute<?>[] dirAttributes() {
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------"))} : new FileAttribute<?>[0];
    }

    private FileAttribute<?>[] fileAttributes() {
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------"))} : new FileAttribute<?>[0];
    }

    private static BasicFileAttributes attributes(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private void removeStaleTempFiles(Instant olderThan) throws IOException {
        FileTime cutoff = FileTime.from(olderThan);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tempDir)) {
            for (Path entry : entries) {
                BasicFileAttributes attrs = attributes(entry);
                if (attrs != null && attrs.isRegularFile() && attrs.lastModifiedTime().compareTo(cutoff) < 0) {
                    LOG.info("Deleting stale temporary file {} left by an interrupted put", entry);
                    deleteQuietly(entry);
                }
            }
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("Could not delete temporary file {}", path, e);
        }
    }

    /** One directory entry: its name, the key it sorts by, and its attributes. */
    private record Entry(String fileName, String sortKey, BasicFileAttributes attrs) {
    }

    /**
     * Depth-first walk in ascending blob-name order, reading one directory at a time. A directory {@code a} sorts as
     * {@code "a/"}, so its blobs come after a sibling {@code a-b} and before a sibling {@code a0}, as their names do.
     */
    private final class TreeIterator implements Iterator<BlobInfo> {
        private final Deque<Iterator<Entry>> stack = new ArrayDeque<>();
        private final Deque<String> prefixes = new ArrayDeque<>();
        private BlobInfo next;

        TreeIterator(Path start, String namePrefix, String leafPrefix) {
            push(start, namePrefix, leafPrefix);
        }

        private void push(Path dir, String namePrefix, String leafPrefix) {
            List<Entry> entries = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
                for (Path child : stream) {
                    String fileName = child.getFileName().toString();
                    if (!fileName.startsWith(leafPrefix) || (dir.equals(root) && fileName.equals(TEMP_DIR))) {
                        continue;
                    }
                    BasicFileAttributes attrs = attributes(child);
                    if (attrs == null || !(attrs.isRegularFile() || attrs.isDirectory())) {
                        continue;
                    }
                    entries.add(new Entry(fileName, attrs.isDirectory() ? fileName + SEPARATOR : fileName, attrs));
                }
            } catch (NoSuchFileException e) {
                return;
            } catch (IOException e) {
                throw new UncheckedIOException("listing " + dir + " failed", e);
            }
            entries.sort(Comparator.comparing(Entry::sortKey));
            stack.push(entries.iterator());
            prefixes.push(namePrefix);
        }

        @Override
        public boolean hasNext() {
            while (next == null && !stack.isEmpty()) {
                Iterator<Entry> top = stack.peek();
                if (!top.hasNext()) {
                    stack.pop();
                    prefixes.pop();
                    continue;
                }
                Entry entry = top.next();
                String name = prefixes.peek() + entry.fileName();
                if (entry.attrs().isDirectory()) {
                    push(root.resolve(name), name + SEPARATOR, "");
                } else {
                    next = new BlobInfo(name, entry.attrs().size(), entry.attrs().lastModifiedTime().toInstant());
                }
            }
            return next != null;
        }

        @Override
        public BlobInfo next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            BlobInfo result = next;
            next = null;
            return result;
        }
    }
}

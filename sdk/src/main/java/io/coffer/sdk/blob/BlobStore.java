package io.coffer.sdk.blob;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Optional;

/**
 * A flat namespace of immutable blobs: the only thing Coffer asks of a backend.
 *
 * <p>Contract, which every implementation passes in the shared contract test:
 * <ul>
 *   <li>{@link #put} is atomic: a reader sees either no blob or the whole blob, never a prefix; a put to an
 *       existing name replaces it atomically. When {@code put} returns the blob is durable.</li>
 *   <li>Read-after-write: a blob is visible to {@link #get}, {@link #head} and {@link #list} once put returned.</li>
 *   <li>{@link #delete} is idempotent: deleting a missing blob is not an error.</li>
 *   <li>Names are {@code [a-z0-9/._-]}, at most 512 characters, never start with '/' nor contain "..".</li>
 *   <li>All methods are thread-safe and blocking; callers that want concurrency run them on their own executor
 *       (the engine does: see {@code io.coffer.sdk.engine}).</li>
 * </ul>
 * A missing blob on {@link #get} is a {@link BlobNotFoundException}; any other failure an {@link IOException}.
 */
public interface BlobStore extends AutoCloseable {

    /** Stores {@code content} under {@code name}, atomically and durably. */
    void put(String name, BlobContent content) throws IOException;

    /**
     * Opens a stream over {@code length} bytes of the blob starting at {@code offset}; {@code length < 0} reads to the
     * end. A range past the end is truncated to the blob (like an HTTP range). The caller closes the stream.
     */
    InputStream get(String name, long offset, long length) throws IOException;

    /** Reads exactly {@code length} bytes at {@code offset}; fewer available is an {@link java.io.EOFException}. */
    default byte[] read(String name, long offset, int length) throws IOException {
        byte[] out = new byte[length];
        readInto(name, offset, out, 0, length);
        return out;
    }

    /**
     * Reads exactly {@code length} bytes at {@code offset} into {@code dst} from {@code dstOffset}, for callers that
     * reuse their buffers; fewer available is an {@link java.io.EOFException}.
     */
    default void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        try (InputStream in = get(name, offset, length)) {
            int got = in.readNBytes(dst, dstOffset, length);
            if (got != length) {
                throw new EOFException("blob " + name + " has " + got + " of " + length + " bytes at offset "
                        + offset);
            }
        }
    }

    /**
     * As {@link #readInto(String, long, byte[], int, int)}, telling {@code progress} how many bytes from {@code
     * dstOffset} have arrived as they arrive, so that a caller can use the first bytes of a long range while the rest
     * is still on its way (the read path opens a run's chunks one by one). The counts it is given never fall and end
     * with {@code length} on success; the bytes a count covers are final: this call does not write them again.
     * Stores that read in one piece tell it once, at the end.
     */
    default void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        readInto(name, offset, dst, dstOffset, length);
        progress.arrived(length);
    }

    /** Told by {@link #readInto(String, long, byte[], int, int, Progress)} how far its bytes have arrived. */
    @FunctionalInterface
    interface Progress {
        /** {@code bytes} bytes from the read's start are in place; a failure thrown here ends the read. */
        void arrived(int bytes) throws IOException;
    }

    /** Size and modification time of a blob, or empty if there is none. */
    Optional<BlobInfo> head(String name) throws IOException;

    /** Removes a blob; no error if it does not exist. */
    void delete(String name) throws IOException;

    /** Every blob whose name starts with {@code prefix}, in ascending name order, read lazily page by page. */
    BlobListing list(String prefix) throws IOException;

    /**
     * A hint, given when a store is opened, of the folders (prefixes ending in '/') that its blob names will use. A
     * store that keeps blobs in real folders creates the missing ones now, so that the first writes into a new store
     * do not each create and fsync a folder; restic's local backend creates its 256 data folders at init for the same
     * reason. Stores without folders (S3) ignore it.
     */
    default void prepareFolders(Collection<String> prefixes) throws IOException {
    }

    /** A short description for logs and health checks, never containing credentials. */
    String describe();

    @Override
    default void close() throws IOException {
    }
}

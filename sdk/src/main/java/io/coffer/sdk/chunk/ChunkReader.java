package io.coffer.sdk.chunk;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Splits an {@link InputStream} into chunks with a {@link Chunker}, streaming through a buffer of at most
 * {@code 2 * maxSize} bytes whatever the input size (it starts smaller and grows only as the input needs it).
 *
 * <p>Before each cut the reader reads until it holds at least {@code maxSize} bytes or the stream ends (short reads
 * are fine), so the chunks are exactly those of chunking the whole input at once. Not thread-safe. Closing the reader
 * closes the stream.
 */
public final class ChunkReader implements Closeable {

    private static final int INITIAL_CAPACITY = 64 << 10;
    /**
     * The most one read asks of the stream while a tap watches: a tap lags behind the reader by at most a few of these,
     * which bounds how long the reader waits before it reuses buffer space.
     */
    private static final int TAPPED_READ = 1 << 20;
    /** {@link #staleBase} when the buffer holds no bytes a tap may still need. */
    private static final long NO_STALE_BYTES = Long.MIN_VALUE;

    /**
     * Sees every byte a reader reads, in stream order, straight from the reader's buffer (no copy). The reader does
     * not overwrite bytes it handed over until {@link #release} says the tap is done with them, so a tap may consume
     * them later, on another thread; nor does it drop a buffer it grew away from before that (so a tap never holds
     * the only reference to a buffer).
     */
    public interface ReadTap {
        /** {@code buf[off, off + len)} were just read; they stay unchanged until released. */
        void read(byte[] buf, int off, int len) throws IOException;

        /** Returns once the tap needs no byte before stream offset {@code end} any more. */
        void release(long end) throws IOException;
    }

    private final InputStream in;
    private final ReadTap tap;
    private final Chunker chunker;
    private final int maxSize;
    private final int capacityLimit;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private long streamOffset;
    /**
     * The stream offset of the byte that {@code buf[0]} held before the last move to the front, so that
     * {@code buf[i]} beyond the live bytes still holds stream offset {@code staleBase + i} (a tap may be reading it);
     * {@link #NO_STALE_BYTES} for a fresh buffer.
     */
    private long staleBase = NO_STALE_BYTES;

    /** Reads chunks of {@code in} as cut by {@code chunker}. */
    public ChunkReader(InputStream in, Chunker chunker) {
        this(in, chunker, null);
    }

    /** Reads chunks of {@code in} as cut by {@code chunker} and hands every byte read to {@code tap} as well. */
    public ChunkReader(InputStream in, Chunker chunker, ReadTap tap) {
        this(in, chunker, tap, null);
    }

    /**
     * As {@link #ChunkReader(InputStream, Chunker, ReadTap)}, streaming through {@code buffer} (any content; the reader
     * overwrites it) instead of a buffer of its own, or its own where {@code buffer} is null. A buffer of
     * {@link #windowSize} bytes is never replaced, so a caller can keep one and reuse it for the next stream once this
     * reader and its tap are done with it; a shorter one is replaced by a larger array as the input needs.
     *
     * @throws IllegalArgumentException if {@code buffer} is empty or longer than {@link #windowSize}
     */
    public ChunkReader(InputStream in, Chunker chunker, ReadTap tap, byte[] buffer) {
        this.in = Objects.requireNonNull(in, "in");
        this.tap = tap;
        this.chunker = Objects.requireNonNull(chunker, "chunker");
        this.maxSize = chunker.maxSize();
        if (maxSize < 1 || maxSize > ChunkerSpec.MAX_SIZE_LIMIT) {
            throw new IllegalArgumentException("chunker maxSize " + maxSize + " is outside [1, 64 MiB]");
        }
        this.capacityLimit = windowSize(chunker);
        if (buffer != null && (buffer.length == 0 || buffer.length > capacityLimit)) {
            throw new IllegalArgumentException("a buffer of " + buffer.length + " bytes for a window of at most "
                    + capacityLimit);
        }
        this.buf = buffer != null ? buffer : new byte[Math.min(capacityLimit, INITIAL_CAPACITY)];
    }

    /** The most bytes a reader with {@code chunker} buffers at once: two of its largest chunks. */
    public static int windowSize(Chunker chunker) {
        return 2 * chunker.maxSize();
    }

    /** The chunker in use. */
    public Chunker chunker() {
        return chunker;
    }

    /** Bytes returned in chunks so far, i.e. the stream offset of the next chunk. */
    public long position() {
        return streamOffset;
    }

    /**
     * The next chunk, or {@code null} at the end of the stream (at once for an empty stream). The returned view is
     * valid until the next call.
     *
     * @throws IOException from the stream
     * @throws IllegalStateException when the chunker returns a length outside {@code [1, min(available, maxSize)]}
     */
    public Chunk next() throws IOException {
        fill();
        int available = limit - pos;
        if (available == 0) {
            return null;
        }
        int n = chunker.nextCut(buf, pos, available);
        if (n < 1 || n > Math.min(available, maxSize)) {
            throw new IllegalStateException(chunker + " returned cut " + n + " for " + available + " bytes");
        }
        Chunk chunk = new Chunk(buf, pos, n, streamOffset);
        pos += n;
        streamOffset += n;
        return chunk;
    }

    /** Reads until {@code maxSize} bytes are buffered after {@code pos} or the stream ends. */
    private void fill() throws IOException {
        while (!eof && limit - pos < maxSize) {
            if (limit == buf.length) {
                makeRoom();
            }
            int want = buf.length - limit;
            if (tap != null) {
                want = Math.min(want, TAPPED_READ);
                if (staleBase != NO_STALE_BYTES) {
                    tap.release(staleBase + limit + want);
                }
            }
            int r = in.read(buf, limit, want);
            if (r < 0) {
                eof = true;
            } else {
                if (tap != null && r > 0) {
                    tap.read(buf, limit, r);
                }
                limit += r;
            }
        }
    }

    /**
     * Frees space at the tail: grows the buffer while below {@code 2 * maxSize}, else moves the unconsumed bytes
     * (fewer than {@code maxSize}) to the front. At full capacity {@code pos > maxSize}, so space is always freed, and
     * the moved bytes never land on themselves.
     */
    private void makeRoom() throws IOException {
        int available = limit - pos;
        byte[] target = buf;
        long bufBase = streamOffset - pos;
        if (buf.length < capacityLimit) {
            int grown = (int) Math.min(capacityLimit, Math.max(2L * buf.length, (long) available + maxSize));
            if (tap != null) {
                tap.release(bufBase + limit); // the old buffer is garbage once the tap is done with it, not later
            }
            target = new byte[grown];
            staleBase = NO_STALE_BYTES;
        } else {
            // the move overwrites [0, available), older bytes than the live ones; the reads after it the rest
            if (tap != null) {
                tap.release(bufBase + available);
            }
            staleBase = bufBase;
        }
        System.arraycopy(buf, pos, target, 0, available);
        buf = target;
        pos = 0;
        limit = available;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}

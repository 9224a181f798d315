package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.blob.BlobNotFoundException;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.ChunkLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The read path: streams a byte range of an object by fetching the chunks it covers, a few ahead of the reader and in
 * parallel, each decrypted, checked (its GCM tag, or for a format-1 chunk its manifest hash) and, if compressed,
 * decompressed before a byte of it is returned. Consecutive chunks that lie back to back in one pack are fetched with
 * one ranged read, each handed to the reader as soon as its bytes have arrived and it is verified ({@link RunFetch}).
 * Memory: {@code readAhead} runs of at most {@link #MAX_RUN_BYTES} each, in arrays from {@link RunArrays} that go back
 * once the reader has passed their run (or, if it closes first, once their read ends). All reads together hold at most
 * the engine's read budget ({@link BufferBudget}): a stream reserves one run when it opens (waiting, then SlowDown, if
 * the budget is spent) and every further run of its read-ahead only if the budget has it free, so it always makes
 * progress and reads ahead when memory allows. The engine starts the first run and verifies its first chunk ({@link
 * #start}) before it hands the stream out.
 *
 * <p>Besides an InputStream it is a {@link ReadableByteChannel}, so that a caller writing to a direct buffer copies
 * each byte once. Both {@code read}s and {@code close} are synchronized so that a close from another thread cannot
 * hand an array back while a read is still copying out of it.
 */
final class ObjectReadStream extends InputStream implements ReadableByteChannel {
    /**
     * The longest run: a whole pack's chunks at the writer's target size (8 MiB), so that a GET sends its S3 backend
     * about one ranged read per pack; each request costs the backend about as much CPU as a few MB of data
     * (docs/BENCHMARKS.md, "Levers tried (issue 23)", get23).
     */
    static final int MAX_RUN_BYTES = 8 << 20;
    /** Runs up to this long (the largest chunk, so every single-chunk run) take the smaller pooled arrays. */
    static final int SMALL_RUN_BYTES = 4 << 20;
    private static final int LOCATE_BATCH = 512;

    private final EngineContext ctx;
    private final List<ManifestEntry> entries;
    private int nextEntry;
    private final int endEntry;
    private long skipInFirst;
    private long remaining;
    /** Runs started and not yet reached, oldest first. */
    private final ArrayDeque<RunFetch> inFlight = new ArrayDeque<>();
    /** The run being read, and the index of its next chunk to read. */
    private RunFetch head;
    private int headNext;
    private byte[] current;
    private int currentPos;
    private int currentEnd;
    /** Locations looked up so far; as large as the manifest at most, which is already in memory. */
    private final Map<ChunkId, ChunkLocation> located = new HashMap<>();
    private int locatedUpTo;
    private boolean closed;
    /** {@link #start} fetched the first run alone: the first read starts the read-ahead behind it. */
    private boolean readAheadDue;
    /** The read budget's share every stream holds while open: its largest possible run, fetched one at a time. */
    private final BufferBudget.Reservation base;
    private boolean baseInUse;
    /**
     * What each run started and not yet passed holds of the read budget, oldest first (runs are read in order):
     * {@link #BASE} for the run under {@link #base}, else its own reservation.
     */
    private final ArrayDeque<BufferBudget.Reservation> held = new ArrayDeque<>();
    private static final BufferBudget.Reservation BASE = () -> { };

    /** Streams {@code length} bytes from {@code offset} of the object whose chunks are {@code entries}. */
    ObjectReadStream(EngineContext ctx, List<ManifestEntry> entries, long offset, long length) {
        this.ctx = ctx;
        this.entries = entries;
        this.remaining = length;
        int i = 0;
        long pos = 0;
        while (i < entries.size() && pos + entries.get(i).length() <= offset) {
            pos += entries.get(i).length();
            i++;
        }
        this.nextEntry = i;
        this.skipInFirst = offset - pos;
        long end = offset + length;
        int j = i;
        long p = pos;
        while (j < entries.size() && p < end) {
            p += entries.get(j).length();
            j++;
        }
        this.endEntry = j;
        // a run is one chunk, or back-to-back chunks of at most MAX_RUN_BYTES together; a chunk takes at most
        // TAG_LENGTH more bytes than it holds in a run's buffer (see slot)
        long covered = 0;
        long largestChunk = 0;
        for (int k = i; k < j; k++) {
            long stored = entries.get(k).length() + ChunkCipher.TAG_LENGTH;
            covered += stored;
            largestChunk = Math.max(largestChunk, stored);
        }
        long largestRun = Math.min(covered, Math.max(MAX_RUN_BYTES, largestChunk));
        this.base = ctx.readBudget.reserve(largestRun == 0 ? 0 : ctx.runBuffers.footprint((int) largestRun));
    }

    /**
     * Starts the first run and waits for its first chunk, verified, so that a missing pack or damage there fails the
     * GET before the caller has begun an answer (a gateway then still sends an error status); the rest is verified
     * chunk by chunk as the reader reaches it, so the answer's first bytes leave while the rest of the first run is
     * still arriving.
     */
    synchronized void start() throws IOException {
        if (remaining == 0 || current != null) {
            return;
        }
        // the first run alone, under the stream's base share: read-ahead takes free memory only once reading starts
        fill(1);
        head = inFlight.poll();
        headNext = 0;
        if (head != null) {
            nextChunk();
            readAheadDue = true;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        int n = readable(len);
        if (n > 0) {
            System.arraycopy(current, currentPos, b, off, n);
            consumed(n);
        }
        return n;
    }

    /**
     * Reads into {@code dst} straight from the verified chunk: a caller that writes to a direct buffer (the gateway's
     * socket writes) saves the copy through a byte array of its own.
     */
    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        int n = readable(dst.remaining());
        if (n > 0) {
            dst.put(current, currentPos, n);
            consumed(n);
        }
        return n;
    }

    @Override
    public synchronized boolean isOpen() {
        return !closed;
    }

    /** How many bytes (at most {@code len}) the current slice can give now, fetching it if need be; -1 at the end. */
    private int readable(int len) throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        if (len == 0) {
            return 0;
        }
        if (remaining == 0) {
            return -1;
        }
        if (readAheadDue) {
            readAheadDue = false;
            fill(ctx.config.readAhead());
        }
        while (current == null || currentPos == currentEnd) {
            if (!nextChunk()) {
                releaseAll();
                return -1;
            }
        }
        return (int) Math.min(Math.min(len, currentEnd - currentPos), remaining);
    }

    private void consumed(int n) {
        currentPos += n;
        remaining -= n;
        if (remaining == 0) {
            // the end: hand the arrays and the budget back now, not only when (or if) the caller closes
            releaseAll();
        }
    }

    @Override
    public synchronized int available() {
        return current == null ? 0 : (int) Math.min(currentEnd - currentPos, remaining);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        releaseAll();
    }

    /**
     * Gives back every array and the whole read budget share. A fetch still running stops at its next chunk and gives
     * its array back itself when it ends (at most one per I/O thread).
     */
    private void releaseAll() {
        for (RunFetch f : inFlight) {
            f.abandon(ctx.runBuffers);
        }
        inFlight.clear();
        if (head != null) {
            head.abandon(ctx.runBuffers);
            head = null;
        }
        current = null;
        while (!held.isEmpty()) {
            releaseOldestRun();
        }
        base.close();
    }

    /** The reader is done with the run it was reading: its array and its share of the read budget go back. */
    private void passHead() {
        head.letGo(ctx.runBuffers);
        head = null;
        current = null;
        releaseOldestRun();
    }

    /** The oldest run still held is passed: its share of the read budget goes back. */
    private void releaseOldestRun() {
        BufferBudget.Reservation r = held.poll();
        if (r == BASE) {
            baseInUse = false;
        } else if (r != null) {
            r.close();
        }
    }

    private boolean nextChunk() throws IOException {
        if (head == null || headNext == head.chunks) {
            if (head != null) {
                // before the next runs start, so that a stream whose budget share is only its base can fetch its next
                // run under it
                passHead();
            }
            fill(ctx.config.readAhead());
            head = inFlight.poll();
            headNext = 0;
            if (head == null) {
                return false;
            }
            fill(ctx.config.readAhead());
        }
        RunFetch.Slice next = await(head, headNext++);
        current = next.array();
        currentPos = next.offset() + (int) skipInFirst;
        skipInFirst = 0;
        currentEnd = next.offset() + next.length();
        return true;
    }

    /**
     * Starts fetches until {@code runs} runs are in flight, every covered chunk is requested, or the read budget has no
     * room for another run (the run under the stream's base always starts).
     */
    private void fill(int runs) throws IOException {
        while (inFlight.size() < runs && nextEntry < endEntry) {
            ensureLocated(nextEntry);
            int start = nextEntry;
            long runBytes = slot(start);
            int end = start + 1;
            while (end < endEntry) {
                ensureLocated(end);
                ChunkLocation next = location(end);
                ChunkLocation prev = location(end - 1);
                if (!next.pack().equals(prev.pack()) || next.offset() != prev.offset() + prev.length()
                        || runBytes + slot(end) > MAX_RUN_BYTES) {
                    break;
                }
                runBytes += slot(end);
                end++;
            }
            BufferBudget.Reservation share;
            if (!baseInUse) {
                share = BASE;
                baseInUse = true;
            } else {
                share = ctx.readBudget.tryReserve(ctx.runBuffers.footprint((int) runBytes));
                if (share == null) {
                    break;
                }
            }
            held.add(share);
            List<ManifestEntry> run = entries.subList(start, end);
            List<ChunkLocation> locs = new ArrayList<>(run.size());
            for (int i = start; i < end; i++) {
                locs.add(location(i));
            }
            nextEntry = end;
            int bufferLength = (int) runBytes;
            RunFetch f = new RunFetch(run.size());
            f.task = CompletableFuture.runAsync(() -> fetch(f, run, locs, bufferLength), ctx.io);
            inFlight.add(f);
        }
    }

    /**
     * The bytes entry {@code i} takes in its run's buffer: its stored length, or for a compressed chunk its plaintext
     * length (at most {@code length + TAG_LENGTH} either way, the bound the stream's budget share assumes).
     */
    private int slot(int entry) throws IOException {
        int stored = location(entry).length();
        int plain = entries.get(entry).length();
        return ChunkCipher.isCompressed(stored, plain) ? plain : stored;
    }

    private ChunkLocation location(int entry) throws IOException {
        ChunkLocation loc = located.get(entries.get(entry).id());
        if (loc == null) {
            throw integrityFailure("chunk " + entries.get(entry).id() + " is not in the chunk index", null);
        }
        return loc;
    }

    private void ensureLocated(int entry) {
        if (entry < locatedUpTo) {
            return;
        }
        int to = Math.min(endEntry, entry + LOCATE_BATCH);
        List<ChunkId> ids = new ArrayList<>(to - entry);
        for (int i = entry; i < to; i++) {
            ids.add(entries.get(i).id());
        }
        located.putAll(ctx.locate(ids));
        locatedUpTo = to;
    }

    /**
     * Reads a run of chunks with one ranged read and decrypts and verifies each as soon as its stored bytes have
     * arrived, handing it to the reader through {@code out}. Runs on the I/O executor.
     *
     * <p>A run of uncompressed chunks is read to the start of its buffer and opened in place. A run with compressed
     * chunks takes a buffer of {@code bufferLength} (the sum of its {@link #slot}s): its stored bytes are read to the
     * end, and each chunk in turn is opened into the next free bytes at the front, a compressed one through the
     * cipher's own frame buffer, an uncompressed one decrypted in place and moved down. Where chunk {@code i}'s
     * plaintext ends, chunk {@code i + 1}'s stored bytes have not yet begun: each chunk before it gave back at least
     * as many bytes as its plaintext takes (a compressed chunk's slot is its plaintext, an uncompressed one stores
     * more than its plaintext), so nothing is overwritten before it is read, nor is a byte still arriving.
     */
    private void fetch(RunFetch out, List<ManifestEntry> run, List<ChunkLocation> locs, int bufferLength) {
        try {
            if (out.abandoned) {
                return;
            }
            ChunkLocation first = locs.get(0);
            ChunkLocation last = locs.get(locs.size() - 1);
            int length = (int) (last.offset() + last.length() - first.offset());
            byte[] bytes = ctx.runBuffers.take(bufferLength);
            out.took(bytes);
            Opener opener = new Opener(out, run, locs, bytes, bufferLength - length);
            readRun(locs, bytes, bufferLength - length, length, opener);
            if (opener.next < run.size()) {
                throw new IOException("the backend read of a run ended before its chunk " + opener.next);
            }
        } catch (IOException e) {
            out.failed(new UncheckedIOException(e));
        } catch (RuntimeException | Error e) {
            out.failed(e);
        } finally {
            out.letGo(ctx.runBuffers);
        }
    }

    /** Opens each chunk of a run whose stored bytes have all arrived, in order, and hands it to the reader. */
    private final class Opener implements BlobStore.Progress {
        private final RunFetch out;
        private final List<ManifestEntry> run;
        private final List<ChunkLocation> locs;
        private final byte[] bytes;
        private final int readAt;
        private final boolean compact;
        /** The next chunk to open, where its stored bytes begin, and where its plaintext goes in a compact run. */
        int next;
        int pos;
        private int plainAt;

        Opener(RunFetch out, List<ManifestEntry> run, List<ChunkLocation> locs, byte[] bytes, int readAt) {
            this.out = out;
            this.run = run;
            this.locs = locs;
            this.bytes = bytes;
            this.readAt = readAt;
            this.compact = readAt > 0;
            this.pos = readAt;
        }

        @Override
        public void arrived(int count) {
            while (next < run.size() && pos - readAt + locs.get(next).length() <= count) {
                if (out.abandoned) {
                    // the reader has gone: end the backend read here
                    throw new CancellationException("the reader closed the stream");
                }
                ManifestEntry e = run.get(next);
                int stored = locs.get(next).length();
                int to = compact ? plainAt : pos;
                try {
                    ctx.cipher().open(e.key(), bytes, pos, stored, bytes, to, e.length(), e.hash());
                } catch (ChunkIntegrityException x) {
                    throw CofferException.of(ErrorCode.INTEGRITY_ERROR, "Stored data of this object failed its "
                            + "integrity check.", x);
                }
                out.opened(new RunFetch.Slice(bytes, to, e.length()));
                pos += stored;
                plainAt += e.length();
                next++;
            }
        }
    }

    /**
     * Reads the run's {@code length} stored bytes into {@code buffer} from {@code at}, telling {@code opener} as they
     * arrive.
     */
    private void readRun(List<ChunkLocation> locs, byte[] buffer, int at, int length, Opener opener)
            throws IOException {
        ChunkLocation first = locs.get(0);
        try {
            ctx.config.blobs().readInto(first.pack(), first.offset(), buffer, at, length, opener);
        } catch (BlobNotFoundException e) {
            // a cached location may be stale (another gateway moved the chunk): ask the store once more, and read
            // the chunks not yet opened from where they are now
            List<ChunkLocation> rest = locs.subList(opener.next, locs.size());
            for (ChunkLocation l : rest) {
                ctx.locations.invalidate(l.id());
            }
            Map<ChunkId, ChunkLocation> fresh = ctx.config.metadata().locate(rest.stream().map(ChunkLocation::id)
                    .toList());
            if (fresh.values().stream().noneMatch(l -> !l.pack().equals(first.pack()))) {
                throw integrityFailure("pack " + first.pack() + " is missing from the backend", e);
            }
            int pos = opener.pos;
            for (ChunkLocation l : rest) {
                ChunkLocation now = fresh.get(l.id());
                if (now == null) {
                    throw integrityFailure("chunk " + l.id() + " is not in the chunk index", e);
                }
                if (now.length() != l.length()) {
                    throw integrityFailure("chunk " + l.id() + " has another length in the chunk index", e);
                }
                ctx.config.blobs().readInto(now.pack(), now.offset(), buffer, pos, now.length());
                pos += now.length();
                opener.arrived(pos - at);
            }
        }
    }

    private RunFetch.Slice await(RunFetch run, int chunk) throws IOException {
        try {
            return run.await(chunk);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted reading a chunk");
        } catch (ExecutionException e) {
            close();
            Throwable c = e.getCause();
            if (c instanceof UncheckedIOException u) {
                c = u.getCause();
            }
            if (c instanceof CofferException ce) {
                throw new IOException(ce.getMessage(), ce);
            }
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IOException("chunk read failed", c);
        }
    }

    private static IOException integrityFailure(String what, Throwable cause) {
        CofferException ce = CofferException.of(ErrorCode.INTEGRITY_ERROR, "Stored data of this object is "
                + "unreadable: " + what, cause);
        return new IOException(ce.getMessage(), ce);
    }
}

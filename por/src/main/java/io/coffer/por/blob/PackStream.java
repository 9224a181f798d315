package io.coffer.por.blob;

import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.io.InputStream;

/**
 * A range of a pack, read from U a part at a time (at most {@link #PART} bytes in memory). If the pack is replaced
 * or deleted while the stream is open, the next part fails rather than mixing versions. If a consolidation moves it,
 * the next part is read at its new blocks, at the same offset (the header, hence where content bytes lie in the
 * blocks, has the same length: same name and block count), each block verified as any read's.
 *
 * <p>Why follow the move rather than defer the zeroing of the old blocks while a stream holds them: a deferred zeroing
 * would hold the old blocks out of the free indices, need a durable record to finish it after a crash, and keep a
 * shrink from completing while a slow download (minutes for a large object) holds blocks above the new capacity; the
 * move costs the stream one map lookup, and crash safety stays that of a put that replaces a pack.
 */
final class PackStream extends InputStream {
    static final int PART = 1 << 20;

    private final PorBlobStore store;
    private final long end;
    private long next;
    /** The pack's map row as of the last part: where a consolidation moved it, the moved one. */
    Entry entry;
    /** The store's count of zeroing changes at the last part ({@link PorBlobStore#readForStream}). */
    long generation;
    private byte[] buffer = new byte[0];
    private int at;

    PackStream(PorBlobStore store, Entry entry, long start, long end, long generation) {
        this.store = store;
        this.entry = entry;
        this.next = start;
        this.end = end;
        this.generation = generation;
    }

    /** Reads the next part; false at the end of the range. */
    boolean fill() throws IOException {
        if (next >= end) {
            return false;
        }
        int n = (int) Math.min(PART, end - next);
        byte[] part = new byte[n];
        store.readForStream(this, next, part, n);
        next += n;
        buffer = part;
        at = 0;
        return true;
    }

    @Override
    public int read() throws IOException {
        if (at == buffer.length && !fill()) {
            return -1;
        }
        return buffer[at++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (at == buffer.length && !fill()) {
            return -1;
        }
        int n = Math.min(len, buffer.length - at);
        System.arraycopy(buffer, at, b, off, n);
        at += n;
        return n;
    }

    @Override
    public int available() {
        return buffer.length - at;
    }
}

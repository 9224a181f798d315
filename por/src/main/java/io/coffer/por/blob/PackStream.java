package io.coffer.por.blob;

import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.io.InputStream;

/**
 * A range of a pack, read from U a part at a time (at most {@link #PART} bytes in memory). If the pack is replaced
 * or deleted while the stream is open, the next part fails rather than mixing versions.
 */
final class PackStream extends InputStream {
    static final int PART = 1 << 20;

    private final PorBlobStore store;
    private final Entry entry;
    private final long end;
    private long next;
    private long generation;
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
        generation = store.readForStream(entry, generation, next, part, n);
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

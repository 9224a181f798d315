package io.coffer.sdk.chunk;

import java.util.Objects;

/**
 * Fixed-size chunker, the baseline without content-defined boundaries: every chunk is {@code size} bytes except a
 * shorter last one. Immutable and thread-safe.
 */
public final class FixedChunker implements Chunker {

    private final int size;

    /**
     * Chunks of {@code size} bytes.
     *
     * @throws IllegalArgumentException when {@code size} is outside {@code [64 B, 64 MiB]} (see {@link ChunkerSpec})
     */
    public FixedChunker(int size) {
        ChunkerSpec.fixed(size);
        this.size = size;
    }

    /** The chunk size. */
    public int size() {
        return size;
    }

    @Override
    public int minSize() {
        return size;
    }

    @Override
    public int maxSize() {
        return size;
    }

    @Override
    public int nextCut(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (length == 0) {
            throw new IllegalArgumentException("no bytes to chunk (length 0)");
        }
        return Math.min(length, size);
    }

    @Override
    public String spec() {
        return ChunkerSpec.fixed(size).toString();
    }

    @Override
    public String toString() {
        return "FixedChunker[" + spec() + "]";
    }
}

package io.coffer.sdk.chunk;

/**
 * Decides where chunks end. A chunker is stateless and thread-safe: it looks only at the bytes it is given.
 *
 * <p>The caller presents the bytes that follow the previous cut, at least {@link #maxSize()} of them unless the
 * stream ends sooner, and gets back the length of the next chunk. {@link ChunkReader} does that buffering.
 */
public interface Chunker {

    /** Smallest chunk this chunker cuts, except the last chunk of a stream. */
    int minSize();

    /** Largest chunk this chunker cuts; also the most bytes {@link #nextCut} ever looks at. */
    int maxSize();

    /**
     * Length of the chunk that starts at {@code data[offset]}.
     *
     * @param length bytes available from {@code offset}, at least 1; less than {@link #maxSize()} only at the end of
     *               the stream
     * @return a value in {@code [1, min(length, maxSize())]} ({@code length} itself when {@code length <= minSize()})
     * @throws IndexOutOfBoundsException when {@code [offset, offset + length)} is not within {@code data}
     * @throws IllegalArgumentException when {@code length} is 0
     */
    int nextCut(byte[] data, int offset, int length);

    /** A short, parseable description such as {@code fastcdc:256k:1m:4m} or {@code fixed:1m} (see {@link ChunkerSpec}). */
    String spec();
}

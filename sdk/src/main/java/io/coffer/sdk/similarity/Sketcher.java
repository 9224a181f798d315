package io.coffer.sdk.similarity;

/**
 * Turns a chunk into a {@link ChunkSketch}. Deterministic and stateless: equal bytes give equal sketches, on any
 * machine, so sketches can be compared across uploads. Implementations are thread-safe.
 */
public interface Sketcher {

    /** The sketch of {@code data[offset, offset + length)}. */
    ChunkSketch sketch(byte[] data, int offset, int length);

    /** Bits of every code this sketcher makes. */
    int codeBits();

    /** A short name for reports, such as {@code finesse-12x3-w48}. */
    String name();
}

package io.coffer.por.checksum;

import io.coffer.por.field.Segments;

/**
 * One row of a checksum: the dot product of a row of M with a block, over Z_p, for blocks whose elements are all in
 * [0, p) ({@link ChecksumKey} checks that first). Implementations give bit-identical rows (the sum is exact before its
 * one reduction); {@link ChecksumKernels} picks the one that runs here.
 */
interface ChecksumKernel {
    /** sum over c of {@code block[c] * m[mOffset + c]}, reduced into [0, p). */
    int dot(int[] m, int mOffset, int[] block);

    /**
     * Every row's {@link #dot} with the segments of {@code bytes} ({@link Segments#fromBytes}): {@code rows[r]} is the
     * dot product of {@code m[r * width + offset ..]} with them. This default converts them into an array first; a
     * kernel may read them from the bytes as it multiplies.
     */
    default void dotSegments(int[] m, int width, int offset, byte[] bytes, int[] rows) {
        int[] elements = Segments.fromBytes(bytes, 0, bytes.length);
        for (int r = 0; r < rows.length; r++) {
            rows[r] = dot(m, r * width + offset, elements);
        }
    }

    /** Whether {@link #dotSegments} reads the segments from the bytes, i.e. costs no conversion of its own. */
    default boolean readsSegmentsFromBytes() {
        return false;
    }

    /** What the kernel runs on, for logs and benchmarks ("scalar", "vector-256"). */
    String name();
}

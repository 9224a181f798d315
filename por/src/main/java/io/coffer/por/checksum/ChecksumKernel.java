package io.coffer.por.checksum;

/**
 * One row of a checksum: the dot product of a row of M with a block, over Z_p, for blocks whose elements are all in
 * [0, p) ({@link ChecksumKey} checks that first). Implementations give bit-identical rows (the sum is exact before its
 * one reduction); {@link ChecksumKernels} picks the one that runs here.
 */
interface ChecksumKernel {
    /** sum over c of {@code block[c] * m[mOffset + c]}, reduced into [0, p). */
    int dot(int[] m, int mOffset, int[] block);

    /** What the kernel runs on, for logs and benchmarks ("scalar", "vector-256"). */
    String name();
}

package io.coffer.por.store;

import io.coffer.por.code.SlicedRecovery;

/**
 * Where a server keeps the blocks a prepared decode produced ({@link io.coffer.por.server.PorServer#prepareDecode})
 * until the client has fetched them: row r is the r-th asked-for block (distinct indices, ascending), as tagged
 * vector elements. {@link SlicedRecovery} fills it slice by slice; {@link #row} reads one block back.
 */
public interface DecodeSpool extends SlicedRecovery.Sink, AutoCloseable {
    /** The tagged vector of row {@code row}, whole. */
    int[] row(int row);

    /** Frees the spool (its memory, or its file). */
    @Override
    void close();

    /** A spool in memory: rows * width ints. */
    static DecodeSpool inMemory(int rows, int width) {
        int[][] blocks = new int[rows][width];
        return new DecodeSpool() {
            @Override
            public void put(int row, int from, int[] elements, int offset, int length) {
                System.arraycopy(elements, offset, blocks[row], from, length);
            }

            @Override
            public int[] row(int row) {
                return blocks[row].clone();
            }

            @Override
            public void close() {
                // garbage once dropped
            }
        };
    }
}

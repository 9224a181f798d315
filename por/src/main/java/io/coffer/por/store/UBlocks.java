package io.coffer.por.store;

import java.io.IOException;

/**
 * Where a {@link DirectoryStorage} keeps U's block bytes, by index: a file of fixed-size records in the server's
 * directory ({@link FileUBlocks}) or one object per block in a bucket ({@link BlobUBlocks}). Which blocks are present
 * is recorded beside the sealed checksums ({@code u.sealed}), not here.
 */
interface UBlocks extends AutoCloseable {
    /**
     * Block {@code index} as last written (undefined bytes where it never was: the caller knows), or null where it was
     * written and is gone (an object deleted from the bucket).
     */
    byte[] read(int index);

    /** {@link #read} of blocks {@code first .. first + count - 1}, each in an array of its own. */
    default byte[][] readRun(int first, int count) {
        byte[][] out = new byte[count][];
        for (int i = 0; i < count; i++) {
            out[i] = read(first + i);
        }
        return out;
    }

    /** Whether a written block is still there (false: it is lost). */
    boolean present(int index);

    void write(int index, byte[] block);

    /** Makes every write so far durable. */
    void force() throws IOException;

    @Override
    void close() throws IOException;
}

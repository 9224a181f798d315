package io.coffer.por.store;

import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import java.io.IOException;

/**
 * Where a {@link DirectoryStorage} keeps the code vectors of H or C: files in the server's directory
 * ({@link FileLevelStore}) or objects in a bucket ({@link BlobLevelStore}). Besides the log's reads and writes it
 * reads whole parts and slices of element positions for decoding, and makes its writes durable at {@link #force}.
 */
interface VectorStore extends LevelStore, AutoCloseable {
    /** How many vectors each part of {@code level} holds. */
    int partSize(int level);

    /** All vectors of one part: memory proportional to the part ({@link #readSlice} is bounded). */
    default int[][] copy(int level, Part part) {
        int size = partSize(level);
        int[][] out = new int[size][width()];
        for (int i = 0; i < size; i++) {
            read(level, part, i, out[i]);
        }
        return out;
    }

    /** Elements {@code positions} (ascending) of vectors from .. from + count - 1 of one part, for decoding. */
    int[][] readSlice(int level, Part part, int from, int count, int[] positions);

    /** Makes every write so far durable. */
    void force() throws IOException;

    @Override
    void close() throws IOException;
}

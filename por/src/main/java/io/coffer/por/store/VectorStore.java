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
    /** All vectors of one part: memory proportional to the part. */
    int[][] copy(int level, Part part);

    /** Elements {@code positions} (ascending) of every vector of one part, for decoding in slices. */
    int[][] readSlice(int level, Part part, int[] positions);

    /** Makes every write so far durable. */
    void force() throws IOException;

    @Override
    void close() throws IOException;
}

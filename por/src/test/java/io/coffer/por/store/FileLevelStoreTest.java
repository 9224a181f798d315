package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Level files in either byte order. */
class FileLevelStoreTest {
    private static final int WIDTH = 12;
    private static final long VECTOR_BYTES = WIDTH * Integer.BYTES;
    private final CodeParameters params = new CodeParameters(4); // H levels 0..4, 2^l vectors per part
    private final SplittableRandom random = new SplittableRandom(19);

    @TempDir
    Path dir;

    private int[] vector() {
        return random.ints(WIDTH, 0, Integer.MAX_VALUE).map(v -> v * 3 + 1).toArray(); // negative too
    }

    /** Every vector of levels 0..4, random, written to {@code store}; returned [level][part][index]. */
    private int[][][][] fill(FileLevelStore store) {
        int[][][][] written = new int[params.k() + 1][2][][];
        for (int level = 0; level <= params.k(); level++) {
            for (Part part : Part.values()) {
                written[level][part.ordinal()] = new int[params.partSize(level)][];
                for (int i = 0; i < params.partSize(level); i++) {
                    written[level][part.ordinal()][i] = vector();
                    store.write(level, part, i, written[level][part.ordinal()][i]);
                }
            }
        }
        return written;
    }

    private static void assertHolds(FileLevelStore store, int[][][][] written) {
        int[] into = new int[WIDTH];
        for (int level = 0; level < written.length; level++) {
            for (Part part : Part.values()) {
                for (int i = 0; i < written[level][part.ordinal()].length; i++) {
                    store.read(level, part, i, into);
                    assertThat(into).as("level %d %s %d", level, part, i).isEqualTo(written[level][part.ordinal()][i]);
                }
            }
        }
    }

    @Test
    void recordsAreIntsInTheStoresByteOrder() throws IOException {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            Path sub = Files.createDirectories(dir.resolve(order.toString()));
            int[] v = vector();
            try (FileLevelStore store = new FileLevelStore(sub, "h", params, WIDTH, order)) {
                store.write(2, Part.Y, 1, v);
            }
            ByteBuffer expected = ByteBuffer.allocate(WIDTH * Integer.BYTES).order(order);
            expected.asIntBuffer().put(v);
            byte[] file = Files.readAllBytes(sub.resolve("h-2-y.vectors"));
            assertThat(file).hasSize(2 * WIDTH * Integer.BYTES);
            assertThat(ByteBuffer.wrap(file, WIDTH * Integer.BYTES, WIDTH * Integer.BYTES).slice())
                    .isEqualTo(expected.clear());
        }
    }

    @Test
    void aFileInTheFormerBigEndianLayoutReadsBackWholeAndInSlices() throws IOException {
        int[][] vectors = {vector(), vector(), vector(), vector()};
        ByteBuffer bytes = ByteBuffer.allocate(4 * WIDTH * Integer.BYTES); // big-endian, as main wrote it
        for (int[] v : vectors) {
            for (int e : v) {
                bytes.putInt(e);
            }
        }
        Files.write(dir.resolve("h-2-x.vectors"), bytes.array());
        try (FileLevelStore store = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.BIG_ENDIAN)) {
            int[] into = new int[WIDTH];
            for (int i = 0; i < 4; i++) {
                store.read(2, Part.X, i, into);
                assertThat(into).isEqualTo(vectors[i]);
            }
            int[][] slice = store.readSlice(2, Part.X, 0, 4, new int[] {0, 5, 11});
            for (int i = 0; i < 4; i++) {
                assertThat(slice[i]).containsExactly(vectors[i][0], vectors[i][5], vectors[i][11]);
            }
        }
    }
}

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

/** Level files in either byte order, and the cache of the smallest levels beside them. */
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
            try (FileLevelStore store = new FileLevelStore(sub, "h", params, WIDTH, order, 0)) {
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
        try (FileLevelStore store = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.BIG_ENDIAN,
                1L << 20)) {
            int[] into = new int[WIDTH];
            for (int i = 0; i < 4; i++) {
                store.read(2, Part.X, i, into);
                assertThat(into).isEqualTo(vectors[i]);
            }
            int[][] slice = store.readSlice(2, Part.X, new int[] {0, 5, 11});
            for (int i = 0; i < 4; i++) {
                assertThat(slice[i]).containsExactly(vectors[i][0], vectors[i][5], vectors[i][11]);
            }
        }
    }

    @Test
    void theCacheHoldsTheSmallestLevelsThatFitItsBudgetAndNoMore() throws IOException {
        long threeLevels = 2 * (1 + 2 + 4) * VECTOR_BYTES;
        assertThat(LevelCache.levelsWithin(params, WIDTH, threeLevels)).isEqualTo(3);
        assertThat(LevelCache.levelsWithin(params, WIDTH, threeLevels - 1)).isEqualTo(2);
        assertThat(LevelCache.levelsWithin(params, WIDTH, 2 * VECTOR_BYTES - 1)).isZero();
        assertThat(LevelCache.levelsWithin(params, WIDTH, Long.MAX_VALUE)).isEqualTo(params.k() + 1); // never C
        try (FileLevelStore store = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.nativeOrder(),
                threeLevels + VECTOR_BYTES)) {
            assertThat(store.cache().levels()).isEqualTo(3);
            assertThat(store.cache().bytes()).isZero();
            fill(store);
            assertThat(store.cache().bytes()).isEqualTo(threeLevels);
        }
    }

    @Test
    void theCacheServesWhatTheFilesHoldAfterWritesAndAReopen() throws IOException {
        long budget = 2 * (1 + 2) * VECTOR_BYTES; // levels 0 and 1
        int[][][][] written;
        try (FileLevelStore cached = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.nativeOrder(), budget)) {
            written = fill(cached);
            cached.write(1, Part.X, 1, written[1][0][0]); // an overwrite
            written[1][0][1] = written[1][0][0].clone();
            assertHolds(cached, written);
            try (FileLevelStore files = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.nativeOrder(), 0)) {
                assertHolds(files, written); // write-through: the files hold every write
            }
        }
        try (FileLevelStore reopened = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.nativeOrder(),
                budget)) {
            assertHolds(reopened, written); // filled from the files
            assertThat(reopened.cache().bytes()).isEqualTo(budget);
            // from now on the cached levels are read from memory: a file changed behind the store's back is not read
            Files.write(dir.resolve("h-1-x.vectors"), new byte[(int) (2 * VECTOR_BYTES)]);
            Files.write(dir.resolve("h-2-x.vectors"), new byte[(int) (4 * VECTOR_BYTES)]);
            int[] into = new int[WIDTH];
            reopened.read(1, Part.X, 0, into);
            assertThat(into).isEqualTo(written[1][0][0]);
            reopened.read(2, Part.X, 0, into);
            assertThat(into).containsOnly(0);
        }
    }

    @Test
    void writingOneElementOfACachedLevelDropsItsCachedVectors() throws IOException {
        try (FileLevelStore store = new FileLevelStore(dir, "h", params, WIDTH, ByteOrder.nativeOrder(),
                1L << 20)) {
            int[][][][] written = fill(store);
            store.writeOneElement(1, 3, new int[] {7, 8}, new int[] {9, 10});
            int[] into = new int[WIDTH];
            store.read(1, Part.Y, 1, into);
            int[] expected = new int[WIDTH];
            expected[3] = 10;
            assertThat(into).isEqualTo(expected);
            store.read(0, Part.X, 0, into);
            assertThat(into).isEqualTo(written[0][0][0]);
        }
    }
}

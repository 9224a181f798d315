package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import io.coffer.sdk.blob.MemoryBlobStore;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slices of element positions read from files and objects give the elements of the whole vectors, also when the
 * positions are pieces far apart (a few from each block of a batch); the spool of a prepared decode keeps its rows.
 */
class SliceReadsTest {
    private static final int WIDTH = 2000;

    @TempDir
    Path dir;

    @Test
    void nearbyPositionsAreReadAsOneRangeAndDistantOnesApart() {
        PositionRanges ranges = PositionRanges.of(new int[] {3, 4, 5, 100, 1000, 1001, 1999}, WIDTH);
        assertThat(ranges.firsts()).containsExactly(3, 1000, 1999);
        assertThat(ranges.lengths()).containsExactly(98, 2, 1);
        assertThat(ranges.offsets()).containsExactly(0, 4, 6);
        assertThat(ranges.longest()).isEqualTo(98);
        assertThatThrownBy(() -> PositionRanges.of(new int[] {5, 5}, WIDTH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascend");
        assertThatThrownBy(() -> PositionRanges.of(new int[] {WIDTH}, WIDTH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
    }

    @Test
    void slicesFromFilesAndObjectsEqualTheWholeVectorsElements() throws Exception {
        CodeParameters params = new CodeParameters(3); // level 2: 4 vectors per part
        SplittableRandom random = new SplittableRandom(8);
        int[][] vectors = new int[4][];
        try (FileLevelStore files = new FileLevelStore(dir, "h", params, WIDTH);
                BlobLevelStore objects = new BlobLevelStore(new MemoryBlobStore("bucket"), "h", params, WIDTH,
                        ByteOrder.nativeOrder())) {
            for (int i = 0; i < 4; i++) {
                vectors[i] = random.ints(WIDTH, 0, 1 << 30).toArray();
                files.write(2, Part.Y, i, vectors[i]);
                objects.write(2, Part.Y, i, vectors[i]);
            }
            // 5 positions from each of four "blocks" of 500 elements, as a batch's slice asks, and a whole range
            int[] pieces = IntStream.range(0, 4).flatMap(b -> IntStream.range(b * 500 + 7, b * 500 + 12)).toArray();
            for (int[] positions : new int[][] {pieces, IntStream.range(0, WIDTH).toArray(), {0}, {WIDTH - 1}}) {
                for (VectorStore store : new VectorStore[] {files, objects}) {
                    int[][] slice = store.readSlice(2, Part.Y, 0, 4, positions);
                    for (int i = 0; i < 4; i++) {
                        int[] expected = new int[positions.length];
                        for (int j = 0; j < positions.length; j++) {
                            expected[j] = vectors[i][positions[j]];
                        }
                        assertThat(slice[i]).as("%s, vector %d", store.getClass().getSimpleName(), i)
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void aFileSpoolKeepsItsRowsAndIsDeletedOnClose() {
        Path file = dir.resolve("decode.spool");
        FileDecodeSpool spool = new FileDecodeSpool(file, 3, 5);
        spool.put(2, 0, new int[] {9, 1, 2, 3}, 1, 3);
        spool.put(2, 3, new int[] {4, 5}, 0, 2);
        spool.put(0, 0, new int[] {6, 6, 6, 6, 6}, 0, 5);
        assertThat(spool.row(2)).containsExactly(1, 2, 3, 4, 5);
        assertThat(spool.row(0)).containsExactly(6, 6, 6, 6, 6);
        assertThatThrownBy(() -> spool.row(3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> spool.put(1, 4, new int[] {1, 2}, 0, 2)).isInstanceOf(IllegalArgumentException.class);
        spool.close();
        assertThat(Files.exists(file)).isFalse();
    }
}

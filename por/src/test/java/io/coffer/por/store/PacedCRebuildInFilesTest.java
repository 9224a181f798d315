package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.code.VectorSource;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The paced C rebuild through the server's level files: the same C as the one-shot rebuild writes there. */
class PacedCRebuildInFilesTest {
    private static final int WIDTH = 5;

    @TempDir
    Path dir;

    @Test
    void aRebuildPacedOverTheWindowWritesTheOneShotCIntoLevelFiles() throws Exception {
        int k = 9;
        CodeParameters params = new CodeParameters(k);
        SplittableRandom random = new SplittableRandom(61);
        int[][] u = new int[params.n()][];
        for (int i = 0; i < u.length; i++) {
            u[i] = BlockTag.tag(random.ints(WIDTH - 1, 0, 1 << 30).toArray(), i);
        }
        VectorSource source = (i, into) -> System.arraycopy(u[i], 0, into, 0, WIDTH);
        try (FileLevelStore oneShot = new FileLevelStore(dir, "one-shot", params, WIDTH);
                FileLevelStore paced = new FileLevelStore(dir, "paced", params, WIDTH)) {
            new HierarchicalLog(params, oneShot, LogState.empty(k)).rebuildC(source);
            PacedCRebuild rebuild = new PacedCRebuild(params, source, paced, params.cLevel());
            for (long step = 1; step <= PacedCRebuild.stepsToComplete(k); step++) {
                rebuild.advanceTo(step);
            }
            assertThat(rebuild.complete()).isTrue();
            int[] expected = new int[WIDTH];
            int[] actual = new int[WIDTH];
            for (Part part : Part.values()) {
                for (int j = 0; j < params.n(); j++) {
                    oneShot.read(params.cLevel(), part, j, expected);
                    paced.read(params.cLevel(), part, j, actual);
                    assertThat(actual).as("%s %d", part, j).isEqualTo(expected);
                }
            }
        }
    }
}

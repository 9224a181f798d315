package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H's smallest levels in memory only: how many fit a budget, and a store that holds them and falls back to the files
 * for the rest (the journaled server's checkpoints and restarts around them: JournaledPorServerTest).
 */
class SmallLevelsInMemoryTest {
    @TempDir
    Path dir;

    @Test
    void theBudgetSaysHowManyLevelsFromLevelZero() {
        CodeParameters h = new CodeParameters(4);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 1, 0)).isZero();
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 1, 2 * 40 - 1)).isZero();
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 1, 2 * 40)).isEqualTo(1);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 1, 6 * 40)).isEqualTo(2);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 1, 14 * 40 - 1)).isEqualTo(2);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 1, Long.MAX_VALUE / 4)).isEqualTo(4); // never C's level
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 3, 6 * 40 * 3)).as("three run slots a level").isEqualTo(2);
        assertThat(SmallLevelsInMemory.memoryLevels(h, 10, 3, 6 * 40 * 3 - 1)).isEqualTo(1);
        assertThat(SmallLevelsInMemory.defaultBudget()).isPositive()
                .isLessThanOrEqualTo(SmallLevelsInMemory.MAX_BUDGET_BYTES);
    }

    @Test
    void theLargestBudgetHoldsLevelsZeroToThreeOfTheGatewaysStoreWithThreeRunSlots() {
        CodeParameters h = new CodeParameters(16 - 4); // 2^16 blocks of 64 KiB, batches of 2^4
        int width = (Segments.count(64 << 10) + 1) << 4;
        int slots = DeamortizedLog.SLOTS; // each level three times the vectors of an amortised one
        long largest = SmallLevelsInMemory.MAX_BUDGET_BYTES;
        assertThat(SmallLevelsInMemory.memoryLevels(h, width, slots, largest)).isEqualTo(4);
        assertThat(SmallLevelsInMemory.memoryLevels(h, width, slots, 64L << 20)).isEqualTo(3);
        assertThat(SmallLevelsInMemory.memoryLevels(h, width, 1, largest)).as("one slot a level").isEqualTo(6);
    }

    @Test
    void theBudgetPropertyOverridesTheShareOfTheHeap() {
        String before = System.getProperty(SmallLevelsInMemory.BUDGET_PROPERTY);
        try {
            System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, "48");
            assertThat(SmallLevelsInMemory.defaultBudget()).isEqualTo(48L << 20);
            System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, "0");
            assertThat(SmallLevelsInMemory.defaultBudget()).as("every level in files").isZero();
            System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, "many");
            assertThatThrownBy(SmallLevelsInMemory::defaultBudget).isInstanceOf(IllegalArgumentException.class);
            System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, "-1");
            assertThatThrownBy(SmallLevelsInMemory::defaultBudget).isInstanceOf(IllegalArgumentException.class);
            System.clearProperty(SmallLevelsInMemory.BUDGET_PROPERTY);
            assertThat(SmallLevelsInMemory.defaultBudget()).isEqualTo(Math.min(SmallLevelsInMemory.MAX_BUDGET_BYTES,
                    Runtime.getRuntime().maxMemory() / 8));
        } finally {
            if (before == null) {
                System.clearProperty(SmallLevelsInMemory.BUDGET_PROPERTY);
            } else {
                System.setProperty(SmallLevelsInMemory.BUDGET_PROPERTY, before);
            }
        }
    }

    @Test
    void theStoreReadsAndSlicesWhatItHoldsInMemoryAndFallsBackToFilesForTheRest() throws IOException {
        CodeParameters h = new CodeParameters(3);
        int width = 6;
        try (FileLevelStore files = new FileLevelStore(dir, "h", h, width)) {
            int[] old = {1, 2, 3, 4, 5, 6};
            files.write(1, Part.X, 0, old); // as a store checkpointed with level 1 in files left it
            SmallLevelsInMemory store = new SmallLevelsInMemory(files, h, 2);
            int[] into = new int[width];
            store.read(1, Part.X, 0, into);
            assertThat(into).isEqualTo(old);

            int[] fresh = {10, 20, 30, 40, 50, 60};
            store.write(1, Part.X, 0, fresh);
            store.write(1, Part.X, 1, fresh);
            store.write(2, Part.X, 0, fresh);
            store.read(1, Part.X, 0, into);
            assertThat(into).isEqualTo(fresh);
            files.read(1, Part.X, 0, into);
            assertThat(into).as("level 1 in memory only").isEqualTo(old);
            files.read(2, Part.X, 0, into);
            assertThat(into).as("level 2 in files").isEqualTo(fresh);
            assertThat(store.readSlice(1, Part.X, 0, 2, new int[] {1, 4})).isEqualTo(new int[][] {{20, 50}, {20, 50}});
            assertThat(Files.size(dir.resolve("h-1-x.vectors"))).isEqualTo(width * Integer.BYTES);
        }
    }
}

package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import org.junit.jupiter.api.Test;

/** H's levels in memory outside the heap: what is written reads back, a cleared level holds nothing, sizes checked. */
class OffHeapLevelsTest {
    @Test
    void writtenVectorsReadBackUntilTheirLevelIsCleared() {
        OffHeapLevels store = new OffHeapLevels(new CodeParameters(4), 5, 3);
        int[] x = {1, -2, 3, Integer.MAX_VALUE, Integer.MIN_VALUE};
        int[] y = {9, 8, 7, 6, 5};
        store.write(2, Part.X, 3, x);
        store.write(2, Part.Y, 3, y);
        store.write(1, Part.X, 0, y);
        int[] into = new int[5];
        store.read(2, Part.X, 3, into);
        assertThat(into).isEqualTo(x);
        store.read(2, Part.Y, 3, into);
        assertThat(into).isEqualTo(y);
        assertThat(store.contains(2, Part.X, 2)).isFalse();

        store.clear(2);
        assertThat(store.contains(2, Part.X, 3)).isFalse();
        assertThat(store.contains(1, Part.X, 0)).as("other levels keep theirs").isTrue();
        assertThatThrownBy(() -> store.read(2, Part.X, 3, into)).isInstanceOf(IllegalStateException.class);
        store.write(2, Part.X, 3, y); // the kept buffer, rewritten
        store.read(2, Part.X, 3, into);
        assertThat(into).isEqualTo(y);
    }

    @Test
    void wrongWidthsAndLevelCountsAreRefused() {
        assertThatThrownBy(() -> new OffHeapLevels(new CodeParameters(4), 5, 5))
                .isInstanceOf(IllegalArgumentException.class);
        OffHeapLevels store = new OffHeapLevels(new CodeParameters(4), 5, 2);
        assertThatThrownBy(() -> store.write(0, Part.X, 0, new int[4])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.write(2, Part.X, 0, new int[5]))
                .isInstanceOf(ArrayIndexOutOfBoundsException.class);
    }
}

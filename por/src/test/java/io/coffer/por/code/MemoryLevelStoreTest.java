package io.coffer.por.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The store in memory: written vectors read back until cleared; take and keep exchange arrays instead of copying. */
class MemoryLevelStoreTest {
    private final CodeParameters params = new CodeParameters(4);

    @Test
    void writtenVectorsReadBackUntilTheirLevelIsCleared() {
        MemoryLevelStore store = new MemoryLevelStore(params, 5);
        int[] x = {1, -2, 3, Integer.MAX_VALUE, Integer.MIN_VALUE};
        int[] y = {9, 8, 7, 6, 5};
        store.write(2, Part.X, 3, x);
        store.write(2, Part.Y, 3, y);
        store.write(1, Part.X, 0, y);
        x[0] = 42; // the store holds a copy
        int[] into = new int[5];
        store.read(2, Part.X, 3, into);
        assertThat(into).containsExactly(1, -2, 3, Integer.MAX_VALUE, Integer.MIN_VALUE);
        assertThat(store.contains(2, Part.X, 2)).isFalse();

        store.clear(2);
        assertThat(store.contains(2, Part.X, 3)).isFalse();
        assertThat(store.contains(1, Part.X, 0)).as("other levels keep theirs").isTrue();
        assertThatThrownBy(() -> store.read(2, Part.X, 3, into)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.write(0, Part.X, 0, new int[4])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTakenVectorIsTheStoresOwnArrayAndTheSpareTakesItsPlaceUntilWritten() {
        MemoryLevelStore store = new MemoryLevelStore(params, 3);
        int[] kept = {4, 5, 6};
        int[] first = store.keep(1, Part.Y, 1, kept);
        int[] spare = {0, 0, 0};

        int[] taken = store.take(1, Part.Y, 1, spare);

        assertThat(taken).isSameAs(kept).containsExactly(4, 5, 6);
        assertThat(store.contains(1, Part.Y, 1)).as("no longer held").isFalse();
        assertThatThrownBy(() -> store.take(1, Part.Y, 1, first)).isInstanceOf(IllegalStateException.class);
        taken[0] = 99; // the caller's now: the store does not see it
        store.write(1, Part.Y, 1, new int[] {7, 8, 9});
        assertThat(spare).as("the spare holds the next write").containsExactly(7, 8, 9);
        assertThat(kept).containsExactly(99, 5, 6);
        assertThatThrownBy(() -> store.take(1, Part.Y, 1, new int[2])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aKeptVectorIsHeldWithoutACopyAndTheArrayItReplacesComesBack() {
        MemoryLevelStore store = new MemoryLevelStore(params, 3);
        int[] a = {1, 2, 3};
        int[] fresh = store.keep(0, Part.X, 0, a);
        assertThat(fresh).as("a new array the first time").hasSize(3).isNotSameAs(a);

        int[] b = {4, 5, 6};
        assertThat(store.keep(0, Part.X, 0, b)).as("the array it held").isSameAs(a);
        int[] into = new int[3];
        store.read(0, Part.X, 0, into);
        assertThat(into).containsExactly(4, 5, 6);
        assertThat(store.copy(0, Part.X)[0]).containsExactly(4, 5, 6).isNotSameAs(b);
        assertThatThrownBy(() -> store.keep(0, Part.X, 0, new int[4])).isInstanceOf(IllegalArgumentException.class);
    }
}

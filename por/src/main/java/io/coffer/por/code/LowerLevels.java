package io.coffer.por.code;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Levels 0..levels-1 of a store, for replaying a window of the latest adds ({@link WriteLog#addsHeldBelow}) into
 * them alone: their reads, writes and clears go to the store; the levels above are left alone (writes and clears
 * dropped, reads give zeros), as their outputs go only to levels above again. With {@code unwrittenAsZero}, a read
 * of a vector of the lower levels that the replay has not written gives zeros too: it is an input of a run that
 * started before the window, which by {@link WriteLog#addsHeldBelow} is dead by the window's end, so what it reads
 * does not matter, and the store may not hold it at all. Without, such reads go to the store (one that held those
 * levels exactly where the replay starts).
 */
public final class LowerLevels implements LevelStore {
    private final LevelStore store;
    private final int levels;
    private final boolean unwrittenAsZero;
    private final Set<Long> written = new HashSet<>();

    public LowerLevels(LevelStore store, int levels, boolean unwrittenAsZero) {
        if (levels < 0) {
            throw new IllegalArgumentException("a number of levels: " + levels);
        }
        this.store = store;
        this.levels = levels;
        this.unwrittenAsZero = unwrittenAsZero;
    }

    @Override
    public int width() {
        return store.width();
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        if (level >= levels || unwrittenAsZero && !written.contains(key(level, part, index))) {
            Arrays.fill(into, 0, width(), 0);
        } else {
            store.read(level, part, index, into);
        }
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (level < levels) {
            store.write(level, part, index, vector);
            written.add(key(level, part, index));
        }
    }

    @Override
    public void clear(int level) {
        if (level < levels) {
            store.clear(level);
        }
    }

    @Override
    public void clear(int level, int from, int count) {
        if (level < levels) {
            store.clear(level, from, count);
        }
    }

    private static long key(int level, Part part, int index) {
        return ((long) level << 40) | ((long) part.ordinal() << 32) | (index & 0xffffffffL);
    }
}

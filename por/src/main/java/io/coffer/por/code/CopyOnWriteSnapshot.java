package io.coffer.por.code;

import java.util.HashMap;
import java.util.Map;

/**
 * U as it was at an epoch's end, for a {@link PacedCRebuild} that reads it over the next writes while they change U:
 * the caller calls {@link #beforeOverwrite} before a write (or delete, or repair) changes vector i of U, and the
 * first such change since the snapshot keeps the old vector aside; {@link #read} serves the aside copy where there is
 * one, else U as it is (unchanged since the snapshot).
 *
 * <p>Copies are kept until the rebuild's switch, not dropped once the rebuild has read them: a rebuild that restarts
 * from its beginning (after a crash) reads every index again, and an index overwritten after its first read would
 * otherwise give the rebuild its new value. They are at most the window's writes (half an epoch), so the space is
 * bounded. In memory: the reference of the semantics; a server keeps its copies durably (they are the only copy).
 */
public final class CopyOnWriteSnapshot implements VectorSource {
    private final VectorSource live;
    private final int width;
    private final Map<Integer, int[]> aside = new HashMap<>();

    /** A snapshot of {@code live}, U now, whose vectors have {@code width} elements. */
    public CopyOnWriteSnapshot(VectorSource live, int width) {
        this.live = live;
        this.width = width;
    }

    /** Keeps vector {@code index} aside unless it already is: called before U's vector changes. */
    public void beforeOverwrite(int index) {
        aside.computeIfAbsent(index, i -> {
            int[] old = new int[width];
            live.read(i, old);
            return old;
        });
    }

    @Override
    public void read(int index, int[] into) {
        int[] old = aside.get(index);
        if (old == null) {
            live.read(index, into);
        } else {
            System.arraycopy(old, 0, into, 0, width);
        }
    }

    /** The vectors kept aside: the snapshot's storage beyond U. */
    public int asideCount() {
        return aside.size();
    }
}

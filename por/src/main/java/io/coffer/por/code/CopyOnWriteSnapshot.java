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
 * bounded. Where the copies are kept is the caller's ({@link Aside}): in memory by default, in a file for a durable
 * server (they are the only copy of U as it was).
 */
public final class CopyOnWriteSnapshot implements VectorSource {
    /** Where the copies are kept, by index of U. */
    public interface Aside {
        /** The copy of vector {@code index}, or null where none is kept. */
        int[] get(int index);

        /** Keeps {@code vector} as the copy of {@code index}, which has none yet. */
        void put(int index, int[] vector);

        int size();

        /** Copies in memory (a snapshot that need not survive the process). */
        static Aside inMemory() {
            Map<Integer, int[]> map = new HashMap<>();
            return new Aside() {
                @Override
                public int[] get(int index) {
                    return map.get(index);
                }

                @Override
                public void put(int index, int[] vector) {
                    map.put(index, vector);
                }

                @Override
                public int size() {
                    return map.size();
                }
            };
        }
    }

    private final VectorSource live;
    private final int width;
    private final Aside aside;

    /** A snapshot of {@code live}, U now, whose vectors have {@code width} elements, its copies in memory. */
    public CopyOnWriteSnapshot(VectorSource live, int width) {
        this(live, width, Aside.inMemory());
    }

    /** As above, with the copies kept in {@code aside} (which may hold copies from before a restart). */
    public CopyOnWriteSnapshot(VectorSource live, int width, Aside aside) {
        this.live = live;
        this.width = width;
        this.aside = aside;
    }

    /** Keeps vector {@code index} aside unless it already is: called before U's vector changes. */
    public void beforeOverwrite(int index) {
        if (aside.get(index) == null) {
            int[] old = new int[width];
            live.read(index, old);
            aside.put(index, old);
        }
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

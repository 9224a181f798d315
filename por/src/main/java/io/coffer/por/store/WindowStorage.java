package io.coffer.por.store;

import io.coffer.por.code.CopyOnWriteSnapshot;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.code.SlicedRecovery;

/**
 * Storage that keeps a paced C rebuild's window (docs/POR.md, "C's rebuild paced"): from an epoch's end to the switch
 * point the ended epoch's H stays frozen beside the old C, a fresh H takes the window's writes, and the paced rebuild
 * writes the next C beside the live one. Storage without it has C rebuilt at once at the epoch's end.
 */
public interface WindowStorage extends PorStorage {
    /**
     * Moves H's vectors and sealed checksums aside as the frozen H and starts an empty H, for the window of
     * {@code epoch} whose next C has the client's sealed checksums {@code nextX} and {@code nextY}, kept until the
     * switch (a durable storage keeps them on disk, not in memory).
     */
    void freezeH(long epoch, byte[][] nextX, byte[][] nextY);

    /** After every H add, in and out of a window: a storage may pace its own work there (a bucket's deletes). */
    default void afterAdd() {
    }

    /** Where U's vectors are kept aside in the window, at their first change ({@link CopyOnWriteSnapshot}). */
    CopyOnWriteSnapshot.Aside copies();

    /** The frozen H's vectors, as {@link #hVectors} were at the freeze. */
    LevelStore frozenHVectors();

    /** The frozen H's sealed checksum of vector {@code position} of one part of {@code level}, null where none. */
    byte[] frozenSealedH(int level, Part part, int position);

    /** Slices of the frozen H's parts, for decoding U in the window. */
    SlicedRecovery.SliceReader frozenHSlices();

    /** The store the paced rebuild writes the next C into (at C's level), emptied at each freeze. */
    LevelStore nextCVectors();

    /** The switch: the next C replaces C, with the client's sealed checksums kept at the freeze; frozen H goes. */
    void switchC();

    /** Ends a window without a switch (a resync or a grow rebuilds C in full): the frozen H and the next C go. */
    void dropWindow();
}

package io.coffer.por.store;

/**
 * Storage that keeps a paced C rebuild's window whose next C's sealed checksums come from the client a part at a time
 * (docs/POR.md, "C's rebuild paced"): beside the copies of U's vectors it keeps U's sealed checksums as they were at
 * the epoch's end, copy-on-write, for the client to download, and the parts of the next C's sealed checksums the
 * client uploads, until the switch installs them.
 */
public interface ClientPartStorage extends WindowStorage {
    /** {@link #freezeH} without the next C's sealed checksums: they come with {@link #setNextSealedC}. */
    void freezeHForClient(long epoch);

    /** Before U's sealed checksum of {@code index} changes in the window: its value at the freeze, at the first. */
    void keepSealedUAside(int index);

    /** U's sealed checksum of {@code index} as it was at the freeze; null where it was never written. */
    byte[] snapshotSealedU(int index);

    /** Keeps the client's sealed checksums of the next C at positions [from, from + x.length) of X and Y. */
    void setNextSealedC(int from, byte[][] x, byte[][] y);

    /** Whether every sealed checksum of the next C is in (always, in a window whose freeze had them all). */
    boolean nextSealedComplete();

    /** Whether a window is open whose freeze was {@link #freezeHForClient}: a restart resumes it as such. */
    boolean windowTakesClientPart();
}

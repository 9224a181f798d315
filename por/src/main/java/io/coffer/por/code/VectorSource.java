package io.coffer.por.code;

/** Random read access to the n vectors C encodes (the raw buffer U, or the checksums of its blocks). */
@FunctionalInterface
public interface VectorSource {
    /** Copies vector {@code index} into {@code into}. */
    void read(int index, int[] into);
}

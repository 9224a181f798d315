package io.coffer.sdk.meta;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The map of a {@link io.coffer.sdk.blob.BlobStore} decorator that keeps blobs in fixed-size numbered blocks (the
 * PoR store, module {@code por}): blob name to (length, block indices), which indices are free, and one opaque state
 * (the PoR client's) that every change stores in the same transaction as the map, so map and state never disagree
 * after a crash. Indices in use are those of the entries; free ones are the indices below {@code nextUnused} that
 * no entry holds (kept as a set) and every index from {@code nextUnused} on.
 *
 * <p>Names compare as UTF-8 bytes. All methods are thread-safe; the write methods are each one transaction.
 */
public interface BlockMapStore {

    /** One blob: its length in bytes and its block indices in order; {@code created} is its modification time. */
    record Entry(String name, long length, int[] blocks, Instant created) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(created, "created");
            blocks = blocks.clone();
        }

        @Override
        public int[] blocks() {
            return blocks.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && name.equals(e.name) && length == e.length
                    && Arrays.equals(blocks, e.blocks) && created.equals(e.created);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, length, Arrays.hashCode(blocks), created);
        }

        @Override
        public String toString() {
            return "Entry[" + name + ", " + length + " bytes, blocks " + Arrays.toString(blocks) + ", " + created + "]";
        }
    }

    /** The free indices: every index from {@code nextUnused} on, and the freed ones below it, ascending. */
    record FreeBlocks(int nextUnused, int[] freed) {
        public FreeBlocks {
            freed = freed.clone();
        }

        @Override
        public int[] freed() {
            return freed.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FreeBlocks f && nextUnused == f.nextUnused && Arrays.equals(freed, f.freed);
        }

        @Override
        public int hashCode() {
            return 31 * nextUnused + Arrays.hashCode(freed);
        }
    }

    /** The stored state, or empty before the first {@link #put}, {@link #remove} or {@link #replaceAll}. */
    Optional<byte[]> state();

    Optional<Entry> entry(String name);

    /** Up to {@code max} entries whose name starts with {@code prefix} and sorts after {@code after} (null: all). */
    List<Entry> list(String prefix, String after, int max);

    FreeBlocks freeBlocks();

    /**
     * One transaction: {@code entry} replaces any entry of its name (whose blocks become free unless {@code entry}
     * holds them), its blocks leave the free set, {@code nextUnused} is stored and {@code state} replaces the state.
     */
    void put(Entry entry, int nextUnused, byte[] state);

    /** One transaction: the entry of {@code name} (if any) is removed, its blocks freed, {@code state} stored. */
    void remove(String name, byte[] state);

    /** Stores {@code state} alone (after a change that left the map as it was, such as an abandoned write). */
    void saveState(byte[] state);

    /** One transaction: the whole map becomes {@code entries} and {@code free}, and the state {@code state}. */
    void replaceAll(List<Entry> entries, FreeBlocks free, byte[] state);
}

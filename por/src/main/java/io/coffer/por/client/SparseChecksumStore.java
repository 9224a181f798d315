package io.coffer.por.client;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import java.util.HashMap;
import java.util.Map;

/**
 * The client's {@link LevelStore} while it simulates one deamortised add of H over checksums: only the vectors the
 * add reads are {@link #put} (opened from the server's sealed checksums) and the add's writes are kept; a read of any
 * other vector is refused, so a simulation can never run on a checksum the client did not verify. O(k - b) entries.
 */
final class SparseChecksumStore implements LevelStore {
    private record Key(int level, Part part, int position) {}

    private final Map<Key, int[]> vectors = new HashMap<>();

    @Override
    public int width() {
        return Checksum.ROWS;
    }

    /** Gives the simulation the opened checksum of one vector it reads. */
    void put(int level, Part part, int position, Checksum checksum) {
        vectors.put(new Key(level, part, position), checksum.rows());
    }

    /** The checksum the simulation wrote (or was given) at a position. */
    Checksum get(int level, Part part, int position) {
        int[] rows = new int[Checksum.ROWS];
        read(level, part, position, rows);
        return Checksum.of(rows);
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        int[] rows = vectors.get(new Key(level, part, index));
        if (rows == null) {
            throw new IllegalStateException("vector " + index + " of " + part + " of level " + level
                    + " was neither given nor written");
        }
        System.arraycopy(rows, 0, into, 0, Checksum.ROWS);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        if (vector.length != Checksum.ROWS) {
            throw new IllegalArgumentException("a checksum has " + Checksum.ROWS + " rows, not " + vector.length);
        }
        vectors.put(new Key(level, part, index), vector.clone());
    }

    /**
     * Keeps the vectors: the store lives for one add, whose outputs the client seals after it, and a level-0 run is
     * merged (and cleared) by the same add that writes it.
     */
    @Override
    public void clear(int level) {}
}

package io.coffer.por.client;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import java.util.Arrays;

/**
 * The client's {@link LevelStore} while it simulates a C rebuild (section 5.4): vectors are checksums (width
 * {@link Checksum#ROWS}) held in flat arrays; what the rebuild writes stays here until the client seals it. Lives for
 * one operation: O(n) checksums, none between operations. (H's adds run over a {@link SparseChecksumStore}.)
 */
final class ChecksumLevelStore implements LevelStore {
    /** Checksums per chunk: a level's parts are allocated a chunk at a time, at its first write (no O(n) pause). */
    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private final CodeParameters params;
    private final int[][][][] levels; // [level][part][chunk] -> CHUNK * ROWS elements; null: not held (or zero)

    ChecksumLevelStore(CodeParameters params) {
        this.params = params;
        this.levels = new int[params.cLevel() + 1][][][];
    }

    @Override
    public int width() {
        return Checksum.ROWS;
    }

    Checksum get(int level, Part part, int index) {
        int[] rows = new int[Checksum.ROWS];
        read(level, part, index, rows);
        return Checksum.of(rows);
    }

    @Override
    public void read(int level, Part part, int index, int[] into) {
        int[][][] parts = levels[level];
        if (parts == null) {
            throw new IllegalStateException("level " + level + " was not loaded");
        }
        int[] chunk = parts[part.ordinal()][index >>> CHUNK_BITS];
        if (chunk == null) {
            Arrays.fill(into, 0, Checksum.ROWS, 0); // never written: zero, as a fresh array's
        } else {
            System.arraycopy(chunk, (index & (CHUNK - 1)) * Checksum.ROWS, into, 0, Checksum.ROWS);
        }
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        int[][] chunks = parts(level)[part.ordinal()];
        int c = index >>> CHUNK_BITS;
        if (chunks[c] == null) {
            chunks[c] = new int[Math.min(CHUNK, params.partSize(level)) * Checksum.ROWS];
        }
        System.arraycopy(vector, 0, chunks[c], (index & (CHUNK - 1)) * Checksum.ROWS, Checksum.ROWS);
    }

    @Override
    public void clear(int level) {
        levels[level] = null;
    }

    private int[][][] parts(int level) {
        if (levels[level] == null) {
            int chunks = (params.partSize(level) + CHUNK - 1) >>> CHUNK_BITS;
            levels[level] = new int[][][] {new int[chunks][], new int[chunks][]};
        }
        return levels[level];
    }
}

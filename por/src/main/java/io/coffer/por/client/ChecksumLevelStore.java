package io.coffer.por.client;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;

/**
 * The client's {@link LevelStore} while it simulates a C rebuild (section 5.4): vectors are checksums (width
 * {@link Checksum#ROWS}) held in flat arrays; what the rebuild writes stays here until the client seals it. Lives for
 * one operation: O(n) checksums, none between operations. (H's adds run over a {@link SparseChecksumStore}.)
 */
final class ChecksumLevelStore implements LevelStore {
    private final CodeParameters params;
    private final int[][][] levels; // [level][part] -> partSize * ROWS elements, null when not held

    ChecksumLevelStore(CodeParameters params) {
        this.params = params;
        this.levels = new int[params.cLevel() + 1][][];
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
        int[][] parts = levels[level];
        if (parts == null) {
            throw new IllegalStateException("level " + level + " was not loaded");
        }
        System.arraycopy(parts[part.ordinal()], index * Checksum.ROWS, into, 0, Checksum.ROWS);
    }

    @Override
    public void write(int level, Part part, int index, int[] vector) {
        System.arraycopy(vector, 0, parts(level)[part.ordinal()], index * Checksum.ROWS, Checksum.ROWS);
    }

    @Override
    public void clear(int level) {
        levels[level] = null;
    }

    private int[][] parts(int level) {
        if (levels[level] == null) {
            int size = params.partSize(level) * Checksum.ROWS;
            levels[level] = new int[][] {new int[size], new int[size]};
        }
        return levels[level];
    }
}

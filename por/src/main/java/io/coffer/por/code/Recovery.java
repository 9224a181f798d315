package io.coffer.por.code;

/**
 * Rebuilds the current U from C and the filled levels of H, each possibly missing up to half of its code vectors:
 * decode C (U as of the last C rebuild), then replay the levels' writes oldest first (level k down to level 0, each
 * in write order), each tagged vector overwriting the block its {@link BlockTag} names. Vectors must be tagged.
 */
public final class Recovery {
    /** Reads the code vectors of part {@code part} of level {@code level}, null where lost. */
    @FunctionalInterface
    public interface PartReader {
        int[][] read(int level, Part part);
    }

    private final CodeParameters params;
    private final LevelDecoder decoder;

    public Recovery(CodeParameters params) {
        this.params = params;
        this.decoder = new LevelDecoder(params);
    }

    /**
     * The n tagged vectors of the current U.
     *
     * @throws IllegalArgumentException when a level has lost more than half of its vectors, or a decoded tag names no
     *     block of U (the code vectors were damaged, not merely lost)
     */
    public int[][] recover(LogState state, PartReader reader) {
        int c = params.cLevel();
        int[][] u = decoder.decodeC(reader.read(c, Part.X), reader.read(c, Part.Y));
        for (int i = 0; i < u.length; i++) {
            if (BlockTag.index(u[i]) != i) {
                throw new IllegalArgumentException("C decodes to a vector tagged " + BlockTag.index(u[i])
                        + " at position " + i);
            }
        }
        for (int level = params.k(); level >= 0; level--) {
            if (!state.filled(level)) {
                continue;
            }
            int[][] writes = decoder.decode(level, state.start(level), reader.read(level, Part.X),
                    reader.read(level, Part.Y));
            for (int[] vector : writes) {
                int index = BlockTag.index(vector);
                if (index < 0 || index >= u.length) {
                    throw new IllegalArgumentException("level " + level + " decodes to a write tagged " + index);
                }
                u[index] = vector;
            }
        }
        return u;
    }
}

package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.Part;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The child JVM of {@link MappedLevelFilesKillTest}: writes vectors of {@link #PARAMS} to a mapped
 * {@link FileLevelStore} in chunks of {@link #CHUNK_BYTES} (reading each back, through the mappings once the files
 * cover them), forces, writes the rest, says so and waits to be killed.
 * Usage: {@code MappedWritesThenKilled DIR}.
 */
final class MappedWritesThenKilled {
    static final CodeParameters PARAMS = new CodeParameters(4);
    static final int WIDTH = 300;
    static final long CHUNK_BYTES = 3L * WIDTH * Integer.BYTES;
    static final int SLOTS = 3;
    /** Levels 0..FORCED_BELOW-1 are written and forced; the levels from it on written after the force. */
    static final int FORCED_BELOW = 2;
    static final String READY = "written, not forced";

    private MappedWritesThenKilled() {}

    /** The vector the child writes at (level, part, index); never all zero. */
    static int[] vector(int level, Part part, int index) {
        int[] v = new int[WIDTH];
        for (int e = 0; e < WIDTH; e++) {
            v[e] = (level * 1_000_003 + part.ordinal() * 7919 + index * 104_729 + e * 31 + 1) & 0x7fffffff;
        }
        return v;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        FileLevelStore store = new FileLevelStore(dir, "h", PARAMS, WIDTH, ByteOrder.nativeOrder(), SLOTS,
                CHUNK_BYTES);
        writeLevels(store, 0, FORCED_BELOW);
        store.force();
        writeLevels(store, FORCED_BELOW, PARAMS.k() + 1);
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(120_000); // killed long before
    }

    private static void writeLevels(FileLevelStore store, int from, int to) {
        int[] into = new int[WIDTH];
        for (int level = from; level < to; level++) {
            for (Part part : Part.values()) {
                for (int i = 0; i < PARAMS.partSize(level, SLOTS); i++) {
                    store.write(level, part, i, vector(level, part, i));
                    store.read(level, part, i / 2, into); // as a merge reads its inputs between its writes
                    if (!Arrays.equals(into, vector(level, part, i / 2))) {
                        throw new IllegalStateException("level " + level + " " + part + " " + i / 2 + " read wrong");
                    }
                }
            }
        }
    }
}

package io.coffer.por.server;

import io.coffer.por.code.LogState;
import io.coffer.por.store.DecodeSpool;
import java.util.Arrays;
import java.util.List;

/**
 * A decode made ahead ({@link HonestPorServer#prepareDecode}): U's rows of the indices asked for, in a spool, valid for
 * the log state they were decoded in. Not thread-safe: the server's calls are serial.
 */
final class PreparedDecode {
    private int[] rows;
    private DecodeSpool spool;
    private LogState state;

    /** Keeps {@code spool} (rows of the sorted distinct {@code rows}) for {@code state}, freeing an earlier one. */
    void keep(int[] rows, DecodeSpool spool, LogState state) {
        drop();
        this.rows = rows;
        this.spool = spool;
        this.state = state;
    }

    /** U's rows of {@code indices} from the spool, or null when it holds none for {@code now} or misses one. */
    int[][] rows(List<Integer> indices, LogState now) {
        if (spool == null || !state.equals(now)) {
            return null;
        }
        int[][] u = new int[indices.size()][];
        for (int i = 0; i < u.length; i++) {
            int row = Arrays.binarySearch(rows, indices.get(i));
            if (row < 0) {
                return null;
            }
            u[i] = spool.row(row);
        }
        return u;
    }

    /** Frees the spool; later decodes decode again. */
    void drop() {
        if (spool != null) {
            DecodeSpool old = spool;
            spool = null;
            rows = null;
            state = null;
            old.close();
        }
    }
}

package io.coffer.sdk;

import java.util.List;

/**
 * What reindex rebuilt from the backend. {@code damaged} names each backend record it could not restore (a blob that
 * does not open under the master key, a group that does not decode, an object whose bucket record is gone) and why;
 * the objects and buckets those held are missing from the rebuilt metadata.
 */
public record ReindexReport(int buckets, long objects, int packs, long chunks, List<String> damaged) {
    public ReindexReport {
        damaged = List.copyOf(damaged);
    }

    /** How many backend records could not be restored. */
    public int skippedBlobs() {
        return damaged.size();
    }

    /** True when every record on the backend was restored. */
    public boolean clean() {
        return damaged.isEmpty();
    }
}

package io.coffer.sdk;

/**
 * Told how far a long maintenance run ({@link Coffer#fsck(boolean, ProgressListener)},
 * {@link Coffer#reindex(ProgressListener)}, {@link Coffer#collectGarbage(ProgressListener)}) has come, for a progress bar. A run goes through named stages one after
 * the other; within a stage it counts steps (objects, blobs). Called on the thread that runs the maintenance, so an
 * implementation must be quick.
 */
public interface ProgressListener {
    /** A listener that ignores everything. */
    ProgressListener NONE = new ProgressListener() {
        @Override
        public void stage(String name, long total) {
        }

        @Override
        public void advance(long steps) {
        }
    };

    /** A stage begins: its name, and how many steps it has, or -1 where that is not known in advance. */
    void stage(String name, long total);

    /** {@code steps} more steps of the current stage are done. */
    void advance(long steps);
}

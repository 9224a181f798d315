package io.coffer.sdk.engine;

/**
 * The read path's run arrays in two sizes: a run that fits {@code small}'s arrays takes one of those, a longer run (up
 * to a whole pack's chunks, {@link ObjectReadStream#MAX_RUN_BYTES}) one of {@code large}'s. A run reads one backend
 * range; on an S3 backend each request costs the backend about as much CPU as a few MB of data (docs/BENCHMARKS.md,
 * "Levers tried (issue 23)", get23), so a run may take a whole pack; a GET of at most one largest chunk's bytes still
 * reserves and holds only the smaller arrays.
 */
final class RunArrays {
    private final RunBuffers small;
    private final int smallSize;
    private final RunBuffers large;

    RunArrays(RunBuffers small, int smallSize, RunBuffers large) {
        this.small = small;
        this.smallSize = smallSize;
        this.large = large;
    }

    /** An array of at least {@code length} bytes from the class that fits it ({@link RunBuffers#take}). */
    byte[] take(int length) {
        return length <= smallSize ? small.take(length) : large.take(length);
    }

    /** The bytes {@link #take} hands out for a run of {@code length}, which a read reserves for it. */
    long footprint(int length) {
        return length <= smallSize ? small.footprint(length) : large.footprint(length);
    }

    /** Gives back an array from {@link #take} (each class keeps only arrays of its own size). */
    void give(byte[] b) {
        if (b == null) {
            return;
        }
        if (b.length == smallSize) {
            small.give(b);
        } else {
            large.give(b);
        }
    }
}

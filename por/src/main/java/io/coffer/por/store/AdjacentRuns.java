package io.coffer.por.store;

/** Runs of adjacent ascending indices (i, i + 1, ...) in a list of block indices: what one positional read covers. */
final class AdjacentRuns {
    /** Called per run with the position of its first index in the list and its length. */
    @FunctionalInterface
    interface Run {
        void at(int start, int count);
    }

    private AdjacentRuns() {}

    /** Calls {@code run} for each maximal run of {@code indices}, in order; every index is in exactly one. */
    static void forEach(int[] indices, Run run) {
        int start = 0;
        for (int i = 1; i <= indices.length; i++) {
            if (i == indices.length || indices[i] != indices[i - 1] + 1) {
                run.at(start, i - start);
                start = i;
            }
        }
    }
}

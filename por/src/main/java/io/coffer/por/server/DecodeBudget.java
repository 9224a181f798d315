package io.coffer.por.server;

/** The memory a server's decode may take for its slices (docs/POR.md, "Repair"). */
final class DecodeBudget {
    /** The system property that sets the decode budget in MiB. */
    static final String PROPERTY = "coffer.por.decode-budget-mib";
    /** The least and the most a decode's slices take by default, whatever the heap. */
    static final long MIN = 8L << 20;
    static final long MAX = 256L << 20;

    private DecodeBudget() {
    }

    /**
     * {@value #PROPERTY} MiB when set, else an eighth of the heap, at least 8 MiB and at most 256 MiB. A larger budget
     * means wider slices: fewer passes over each level and longer reads.
     */
    static long bytes() {
        Long mib = Long.getLong(PROPERTY);
        if (mib != null) {
            if (mib < 1 || mib > 1L << 20) {
                throw new IllegalArgumentException(PROPERTY + " must be in [1, 1048576] MiB: " + mib);
            }
            return mib << 20;
        }
        return Math.max(MIN, Math.min(MAX, Runtime.getRuntime().maxMemory() / 8));
    }
}

package io.coffer.por.blob;

import java.time.Duration;

/**
 * One audit of the PoR store: the verdict, how many regions (C and each filled level of H) and code vectors were
 * sampled, how many blocks of U were read back verified and how many of those failed, the client-server bytes beside
 * blocks, the time it took and, for a failure, why.
 */
public record PorAuditReport(boolean passed, int levelsChecked, int vectorsSampled, int uBlocksSampled,
        int uBlocksBad, long bytesDown, long bytesUp, Duration took, String detail) {

    /** A report without a spot check of U (an audit that could not run). */
    public PorAuditReport(boolean passed, int levelsChecked, int vectorsSampled, long bytesDown, long bytesUp,
            Duration took, String detail) {
        this(passed, levelsChecked, vectorsSampled, 0, 0, bytesDown, bytesUp, took, detail);
    }
}

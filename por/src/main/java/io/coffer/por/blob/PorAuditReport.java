package io.coffer.por.blob;

import java.time.Duration;

/**
 * One audit of the PoR store: the verdict, how many regions (C and each filled level of H) and code vectors were
 * sampled, the client-server bytes beside blocks, the time it took and, for a failure, why.
 */
public record PorAuditReport(boolean passed, int levelsChecked, int vectorsSampled, long bytesDown, long bytesUp,
        Duration took, String detail) {
}

package io.coffer.por.blob;

import java.time.Duration;

/**
 * A consolidation pass ({@link PorBlobStore#consolidate}): the capacity before and after (equal when none was due),
 * the blocks in use, and the packs and blocks moved below the new capacity before the store shrank.
 */
public record PorConsolidationReport(int capacityBefore, int capacityAfter, int blocksUsed, int packsMoved,
        long blocksMoved, Duration took) {
    public boolean shrank() {
        return capacityAfter < capacityBefore;
    }
}

package io.coffer.gateway.por;

import io.coffer.por.blob.PorAuditReport;
import io.coffer.por.blob.PorConsolidationReport;
import io.coffer.por.blob.PorRepairReport;

/**
 * What the gateway asks of a store's proof-of-retrievability client ({@code PorBlobStore}): an audit, a repair and
 * the block counts, without the checked exception of its repair, so that the scheduler, the admin endpoints and the
 * verbs do not depend on how the store is opened.
 */
public interface PorControl {
    /** One audit now; a server that cannot answer is a failed audit, not an exception. */
    PorAuditReport audit();

    /** Reads every mapped block verified and repairs the failing ones; an I/O failure is unchecked. */
    PorRepairReport repair();

    /**
     * Consolidation (appendix A.3): when at most a quarter of the capacity is in use, the packs above the smallest
     * capacity that holds them twice over (at least the initial one) move below it and the store shrinks; else
     * nothing. An I/O failure is unchecked.
     */
    default PorConsolidationReport consolidate() {
        throw new UnsupportedOperationException("this PoR store does not consolidate");
    }

    /** Blocks of U that hold pack data. */
    int blocksUsed();

    /** The server's capacity: 2^k blocks. */
    int capacity();

    /** Blocks that reads found damaged and repaired on the way since the store opened. */
    default long blocksRepairedOnRead() {
        return 0;
    }
}

package io.coffer.gateway.por;

/**
 * What the gateway asks of a store's proof-of-retrievability client: an audit, a repair and the block counts. It is
 * an interface so that the scheduler, the admin endpoints and the verbs do not depend on how the store is opened.
 */
public interface PorControl {
    /** One audit now; a server that cannot answer is a failed audit, not an exception. */
    PorAudit audit();

    /** Reads every mapped block verified and repairs the failing ones. */
    PorRepair repair();

    /** Blocks of U that hold pack data. */
    int blocksUsed();

    /** The server's capacity: 2^k blocks. */
    int capacity();
}

package io.coffer.sdk;

/**
 * A maintenance job's lease in the metadata store ({@link Coffer#takeMaintenanceLease}): while it is held, no other
 * process of the store runs the job. A holder that dies leaves it to expire on its own (at once for a new process
 * of the same host).
 */
public interface MaintenanceLease extends AutoCloseable {
    /**
     * Renews the lease when half its term has passed; {@link LeaseHeldException} when it expired and another process
     * took it (the job then stops: the other process does the work).
     */
    void renewIfDue();

    /** Gives the lease back. */
    @Override
    void close();
}

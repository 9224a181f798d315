package io.coffer.sdk;

import java.time.Instant;

/**
 * A maintenance job (garbage collection) was not started because another process holds its lease in the metadata
 * store: one gateway at a time runs it. Nothing changed; asking again after {@link #expires()} (or once the other
 * run ends) may succeed.
 */
public final class LeaseHeldException extends CofferException {
    private static final long serialVersionUID = 1L;

    private final String holder;
    private final transient Instant expires;

    public LeaseHeldException(String job, String holder, Instant expires) {
        super(ErrorCode.SERVICE_UNAVAILABLE, job + " is running on " + holder + " (its lease expires at " + expires
                + "); nothing was done", null);
        this.holder = holder;
        this.expires = expires;
    }

    /** The process that holds the lease. */
    public String holder() {
        return holder;
    }

    /** When the lease expires unless its holder renews it. */
    public Instant expires() {
        return expires;
    }
}

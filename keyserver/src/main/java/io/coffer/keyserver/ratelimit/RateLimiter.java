package io.coffer.keyserver.ratelimit;

/**
 * Decides, per client identity, whether and when a query is evaluated. Thread-safe. Every
 * {@link Admission.Outcome#ADMIT} must be followed by exactly one {@link #complete} for the same client,
 * once the answer is sent (or abandoned): that is what takes the client off the active-client list.
 */
public interface RateLimiter {
    /** Decides about a query of {@code queries} elements (a batch of n counts as n). */
    Admission admit(String client, int queries);

    /** The admitted query of this client has been answered. */
    void complete(String client);

    /** The longest delay this limiter imposes on a single query; clients should wait at least this long. */
    long maxDelayNanos();
}

package io.coffer.keyserver.ratelimit;

import java.time.Duration;

/**
 * Fixed delay: every query is answered after tD (a batch of n after n * tD); a client with a query pending
 * is on the active-client list and its further queries are dropped.
 */
final class FixedDelay implements RateLimiter {
    private final long delayNanos;
    private final ActiveClients active = new ActiveClients();

    FixedDelay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("negative delay");
        }
        this.delayNanos = delay.toNanos();
    }

    @Override
    public Admission admit(String client, int queries) {
        if (!active.enter(client)) {
            return Admission.busy();
        }
        return Admission.admit(delayNanos * queries);
    }

    @Override
    public void complete(String client) {
        active.leave(client);
    }

    @Override
    public long maxDelayNanos() {
        return delayNanos;
    }

    @Override
    public String toString() {
        return "fixed:delay=" + RateLimitSpec.formatDuration(delayNanos);
    }
}

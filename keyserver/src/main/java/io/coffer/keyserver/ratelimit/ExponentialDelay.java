package io.coffer.keyserver.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Exponential delay: a client's first query waits the initial delay, and the delay doubles after every
 * query up to tU. A client that makes no query during a whole epoch tE (measured from its last query)
 * starts again at the initial delay. A batch of n waits the sum of the next n delays. Clients with a query
 * pending are on the active-client list; their further queries are dropped.
 */
final class ExponentialDelay implements RateLimiter {
    private static final class State {
        long nextDelay;
        long lastQuery;
    }

    private final long initialNanos;
    private final long maxNanos;
    private final long epochNanos;
    private final LongSupplier clock;
    private final ActiveClients active = new ActiveClients();
    private final Cache<String, State> states;

    ExponentialDelay(Duration initial, Duration max, Duration epoch, LongSupplier clock) {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0 || epoch.isZero() || epoch.isNegative()) {
            throw new IllegalArgumentException("exp needs 0 < initial <= max and a positive epoch");
        }
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
        this.epochNanos = epoch.toNanos();
        this.clock = clock;
        this.states = Caffeine.newBuilder().expireAfterAccess(epoch.plus(max).multipliedBy(2)).build();
    }

    @Override
    public Admission admit(String client, int queries) {
        if (!active.enter(client)) {
            return Admission.busy();
        }
        State s = states.get(client, k -> {
            State fresh = new State();
            fresh.nextDelay = initialNanos;
            fresh.lastQuery = clock.getAsLong();
            return fresh;
        });
        synchronized (s) {
            long now = clock.getAsLong();
            if (now - s.lastQuery >= epochNanos) {
                s.nextDelay = initialNanos;
            }
            s.lastQuery = now;
            long total = 0;
            for (int i = 0; i < queries; i++) {
                total += s.nextDelay;
                s.nextDelay = Math.min(maxNanos, s.nextDelay * 2);
            }
            return Admission.admit(total);
        }
    }

    @Override
    public void complete(String client) {
        active.leave(client);
    }

    @Override
    public long maxDelayNanos() {
        return maxNanos;
    }

    @Override
    public String toString() {
        return "exp:initial=" + RateLimitSpec.formatDuration(initialNanos) + ",max=" + RateLimitSpec.formatDuration(maxNanos)
                + ",epoch=" + RateLimitSpec.formatDuration(epochNanos);
    }
}

package io.coffer.keyserver.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Bounded: at most q queries per epoch of length tE per client; further queries are answered "rate
 * limited" until the epoch ends. A client's epoch starts with its first query after the previous epoch
 * ended (epochs are per client rather than globally synchronised; either way no client gets more than 2q
 * queries in any window of length tE). A batch larger than the remaining budget is refused whole.
 */
final class Bounded implements RateLimiter {
    private static final class Budget {
        long epochStart;
        long used;
    }

    private final long q;
    private final long epochNanos;
    private final LongSupplier clock;
    private final Cache<String, Budget> budgets;

    Bounded(long q, Duration epoch, LongSupplier clock) {
        if (q < 1 || epoch.isZero() || epoch.isNegative()) {
            throw new IllegalArgumentException("bounded needs q >= 1 and a positive epoch");
        }
        this.q = q;
        this.epochNanos = epoch.toNanos();
        this.clock = clock;
        this.budgets = Caffeine.newBuilder().expireAfterAccess(epoch.multipliedBy(2)).build();
    }

    @Override
    public Admission admit(String client, int queries) {
        Budget b = budgets.get(client, k -> {
            Budget fresh = new Budget();
            fresh.epochStart = clock.getAsLong();
            return fresh;
        });
        synchronized (b) {
            long now = clock.getAsLong();
            if (now - b.epochStart >= epochNanos) {
                b.epochStart = now;
                b.used = 0;
            }
            if (b.used + queries > q) {
                return Admission.rateLimited();
            }
            b.used += queries;
            return Admission.admit(0);
        }
    }

    @Override
    public void complete(String client) {
        // Bounded keeps no active-client list
    }

    @Override
    public long maxDelayNanos() {
        return 0;
    }

    @Override
    public String toString() {
        return "bounded:q=" + q + ",epoch=" + RateLimitSpec.formatDuration(epochNanos);
    }
}

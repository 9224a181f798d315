package io.coffer.keyserver.ratelimit;

/** No rate limiting (spec {@code none}): every query admitted at once. */
final class Unlimited implements RateLimiter {
    @Override
    public Admission admit(String client, int queries) {
        return Admission.admit(0);
    }

    @Override
    public void complete(String client) {
        // nothing is tracked without a limit
    }

    @Override
    public long maxDelayNanos() {
        return 0;
    }

    @Override
    public String toString() {
        return "none";
    }
}

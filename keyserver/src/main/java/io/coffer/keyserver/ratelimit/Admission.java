package io.coffer.keyserver.ratelimit;

/** A limiter's decision about one query: admit after a delay, refuse (budget exhausted), or drop (busy). */
public final class Admission {
    /** What to do with the query. */
    public enum Outcome {
        /** Evaluate after {@link #delayNanos()}. The caller must call {@link RateLimiter#complete} afterwards. */
        ADMIT,
        /** Answer "rate limited" now. */
        RATE_LIMITED,
        /** The client has a query pending (active-client list): drop this one. */
        BUSY
    }

    private static final Admission NOW = new Admission(Outcome.ADMIT, 0);
    private static final Admission LIMITED = new Admission(Outcome.RATE_LIMITED, 0);
    private static final Admission BUSY = new Admission(Outcome.BUSY, 0);

    private final Outcome outcome;
    private final long delayNanos;

    private Admission(Outcome outcome, long delayNanos) {
        this.outcome = outcome;
        this.delayNanos = delayNanos;
    }

    public static Admission admit(long delayNanos) {
        return delayNanos == 0 ? NOW : new Admission(Outcome.ADMIT, delayNanos);
    }

    public static Admission rateLimited() {
        return LIMITED;
    }

    public static Admission busy() {
        return BUSY;
    }

    public Outcome outcome() {
        return outcome;
    }

    public long delayNanos() {
        return delayNanos;
    }

    @Override
    public String toString() {
        return outcome == Outcome.ADMIT ? "ADMIT after " + delayNanos + "ns" : outcome.name();
    }
}

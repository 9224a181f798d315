package io.coffer.keyserver.ratelimit;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Parses rate-limit specifications, the same strings for the builder, the command line and config files:
 * <ul>
 *   <li>{@code none}
 *   <li>{@code bounded:q=1000,epoch=1s} (q queries per epoch)
 *   <li>{@code fixed:delay=5ms} (tD)
 *   <li>{@code exp:max=1s,epoch=10s} or {@code exp:initial=2ms,max=1s,epoch=10s} (initial defaults to 1ms)
 * </ul>
 * Durations are an integer with unit {@code us}, {@code ms}, {@code s}, {@code m} or {@code h}. Unknown
 * kinds, unknown or missing parameters and malformed values are rejected with a message naming them.
 */
public final class RateLimitSpec {
    private final String spec;
    private final String kind;
    private final Map<String, String> params;

    private RateLimitSpec(String spec, String kind, Map<String, String> params) {
        this.spec = spec;
        this.kind = kind;
        this.params = params;
    }

    public static RateLimitSpec parse(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        int colon = s.indexOf(':');
        String kind = colon < 0 ? s : s.substring(0, colon);
        Map<String, String> params = new HashMap<>();
        if (colon >= 0) {
            for (String part : s.substring(colon + 1).split(",")) {
                int eq = part.indexOf('=');
                if (eq <= 0 || eq == part.length() - 1 || params.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim()) != null) {
                    throw new IllegalArgumentException("rate limit: malformed parameter '" + part + "' in '" + spec + "'");
                }
            }
        }
        RateLimitSpec parsed = new RateLimitSpec(spec, kind, params);
        parsed.create(System::nanoTime);
        return parsed;
    }

    /** A limiter for this spec, reading time from {@code nanoClock}. */
    public RateLimiter create(LongSupplier nanoClock) {
        switch (kind) {
            case "none":
                allow();
                return new Unlimited();
            case "bounded":
                allow("q", "epoch");
                return new Bounded(positiveLong("q"), duration("epoch"), nanoClock);
            case "fixed":
                allow("delay");
                return new FixedDelay(duration("delay"));
            case "exp":
                allow("initial", "max", "epoch");
                Duration initial = params.containsKey("initial") ? duration("initial") : Duration.ofMillis(1);
                return new ExponentialDelay(initial, duration("max"), duration("epoch"), nanoClock);
            default:
                throw new IllegalArgumentException("rate limit: unknown kind '" + kind + "' (none, bounded, fixed, exp)");
        }
    }

    public RateLimiter create() {
        return create(System::nanoTime);
    }

    private void allow(String... names) {
        Set<String> allowed = Set.of(names);
        for (String k : params.keySet()) {
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("rate limit: unknown parameter '" + k + "' for " + kind);
            }
        }
    }

    private String required(String name) {
        String v = params.get(name);
        if (v == null) {
            throw new IllegalArgumentException("rate limit: " + kind + " needs " + name);
        }
        return v;
    }

    private long positiveLong(String name) {
        try {
            long v = Long.parseLong(required(name));
            if (v < 1) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rate limit: " + name + " must be a positive integer");
        }
    }

    private Duration duration(String name) {
        return parseDuration(required(name));
    }

    /** Parses "250ms", "5s", "100us", "2m", "1h". */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0 || i == t.length()) {
            throw new IllegalArgumentException("duration '" + text + "' needs a number and a unit (us, ms, s, m, h)");
        }
        long n;
        try {
            n = Long.parseLong(t.substring(0, i));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("duration '" + text + "' out of range");
        }
        switch (t.substring(i)) {
            case "us":
                return Duration.ofNanos(n * 1000);
            case "ms":
                return Duration.ofMillis(n);
            case "s":
                return Duration.ofSeconds(n);
            case "m":
                return Duration.ofMinutes(n);
            case "h":
                return Duration.ofHours(n);
            default:
                throw new IllegalArgumentException("duration '" + text + "': unknown unit (us, ms, s, m, h)");
        }
    }

    static String formatDuration(long nanos) {
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return nanos / 1000 + "us";
    }

    @Override
    public String toString() {
        return spec;
    }
}

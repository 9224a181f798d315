package io.coffer.gateway.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * A duration setting: {@code 0} (off), a positive whole number with unit {@code s}, {@code m}, {@code h} or
 * {@code d} ({@code 90s}, {@code 30m}, {@code 6h}, {@code 7d}), or an ISO-8601 duration ({@code PT6H}).
 */
final class DurationSetting {
    private DurationSetting() {
    }

    /** The duration {@code v} of setting {@code key}: {@link Duration#ZERO} for 0, else an error naming the key. */
    static Duration parse(ConfigKey key, String v) {
        String s = v.strip().toLowerCase(Locale.ROOT);
        Duration d;
        try {
            if (s.equals("0")) {
                return Duration.ZERO;
            } else if (s.startsWith("p")) {
                d = Duration.parse(s.toUpperCase(Locale.ROOT));
            } else if (s.length() > 1 && "smhd".indexOf(s.charAt(s.length() - 1)) >= 0) {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                d = switch (s.charAt(s.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            } else {
                d = null;
            }
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            d = null;
        }
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key.key() + " must be 0 (off) or a duration such as 90s, 30m, 6h, 1d,"
                    + " got '" + v + "'");
        }
        return d;
    }
}

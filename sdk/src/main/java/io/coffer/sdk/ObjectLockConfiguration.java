package io.coffer.sdk;

import java.time.Instant;
import java.time.ZoneOffset;

/**
 * A bucket's Object Lock configuration (the bucket has Object Lock enabled) and its default retention, which new
 * versions get unless their write names a lock of its own: {@code defaultMode} null for none; otherwise exactly one of
 * {@code defaultDays} and {@code defaultYears} is positive (S3's rule), at most 36,500 days or 100 years.
 */
public record ObjectLockConfiguration(ObjectLockMode defaultMode, int defaultDays, int defaultYears) {
    /** Object Lock enabled without a default retention. */
    public static final ObjectLockConfiguration NO_DEFAULT = new ObjectLockConfiguration(null, 0, 0);
    static final int MAX_DAYS = 36_500;
    static final int MAX_YEARS = 100;

    public ObjectLockConfiguration {
        if (defaultMode == null ? defaultDays != 0 || defaultYears != 0
                : (defaultDays > 0) == (defaultYears > 0) || defaultDays < 0 || defaultYears < 0
                || defaultDays > MAX_DAYS || defaultYears > MAX_YEARS) {
            throw CofferException.of(ErrorCode.INVALID_RETENTION_PERIOD,
                    "Default retention period must be a positive integer value of days or years, not both "
                            + "(at most " + MAX_DAYS + " days or " + MAX_YEARS + " years)");
        }
    }

    /** The lock the default retention gives a version written at {@code now}; {@link ObjectLock#NONE} if none. */
    public ObjectLock defaultLock(Instant now) {
        if (defaultMode == null) {
            return ObjectLock.NONE;
        }
        Instant until = defaultDays > 0 ? now.plusSeconds(86_400L * defaultDays)
                : now.atZone(ZoneOffset.UTC).plusYears(defaultYears).toInstant();
        return new ObjectLock(defaultMode, until, false);
    }
}

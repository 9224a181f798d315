package io.coffer.sdk;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The Object Lock of one object version: a retention (mode and retain-until date, both or neither) and a legal hold.
 * A version is locked while its retain-until date is in the future or its legal hold is on; then it cannot be
 * deleted (governance retention: unless the caller bypasses it) and its retention cannot be shortened.
 *
 * @param retainUntil kept to the millisecond, as S3 reports it
 */
public record ObjectLock(ObjectLockMode mode, Instant retainUntil, boolean legalHold) {
    /** No retention, no legal hold. */
    public static final ObjectLock NONE = new ObjectLock(null, null, false);

    public ObjectLock {
        if ((mode == null) != (retainUntil == null)) {
            throw new IllegalArgumentException("a retention has both a mode and a retain-until date");
        }
        retainUntil = retainUntil == null ? null : retainUntil.truncatedTo(ChronoUnit.MILLIS);
    }

    public boolean hasRetention() {
        return mode != null;
    }

    /** Whether the retention still holds at {@code now} (its date is after it). */
    public boolean retainedAt(Instant now) {
        return mode != null && retainUntil.isAfter(now);
    }

    /** Whether the version cannot be deleted at {@code now} by a caller that does not bypass governance retention. */
    public boolean lockedAt(Instant now) {
        return legalHold || retainedAt(now);
    }

    /**
     * Whether this lock protects at least as much as {@code other}: its legal hold if {@code other} has one, and a
     * retention no shorter and no weaker (COMPLIANCE over GOVERNANCE) if {@code other} has one.
     */
    public boolean covers(ObjectLock other) {
        if (other.legalHold && !legalHold) {
            return false;
        }
        return !other.hasRetention() || hasRetention() && !retainUntil.isBefore(other.retainUntil)
                && (mode == other.mode || mode == ObjectLockMode.COMPLIANCE);
    }

    public ObjectLock withRetention(ObjectLockMode newMode, Instant until) {
        return new ObjectLock(newMode, until, legalHold);
    }

    public ObjectLock withLegalHold(boolean on) {
        return new ObjectLock(mode, retainUntil, on);
    }
}

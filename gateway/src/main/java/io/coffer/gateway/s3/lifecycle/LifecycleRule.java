package io.coffer.gateway.s3.lifecycle;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * One rule of a bucket's lifecycle configuration: what it applies to and its actions (each null when the rule has
 * none). Times follow S3: an action due {@code n} days after an event is due at the first midnight UTC at or after
 * event + n days.
 *
 * @param expiration     what happens to current versions (and expired delete markers)
 * @param noncurrent     when noncurrent versions are removed
 * @param abortAfterDays days after initiation at which an incomplete multipart upload is aborted; 0: never
 */
public record LifecycleRule(String id, boolean enabled, LifecycleFilter filter, Expiration expiration,
                            NoncurrentExpiration noncurrent, int abortAfterDays) {

    /**
     * S3's {@code Expiration}: exactly one of {@code days} (positive; 0 when not set), {@code date} (a midnight UTC;
     * null when not set) and {@code expiredObjectDeleteMarker} (non-null only when the element was given).
     */
    public record Expiration(int days, Instant date, Boolean expiredObjectDeleteMarker) {
        /** True if a current version last modified at {@code lastModified} is expired at {@code now}. */
        public boolean expires(Instant lastModified, Instant now) {
            if (date != null) {
                return !now.isBefore(date);
            }
            return days > 0 && !now.isBefore(due(lastModified, days));
        }

        /** When a current version last modified at {@code lastModified} expires; null if the rule has no day or date. */
        public Instant dueAt(Instant lastModified) {
            return date != null ? date : days > 0 ? due(lastModified, days) : null;
        }

        /** True if the rule removes a delete marker that is a key's only version. */
        public boolean removesExpiredDeleteMarkers() {
            return Boolean.TRUE.equals(expiredObjectDeleteMarker);
        }
    }

    /**
     * S3's {@code NoncurrentVersionExpiration}: a noncurrent version is removed {@code days} after it became noncurrent
     * (its successor's creation), unless it is among the {@code newerNoncurrentVersions} newest noncurrent versions of
     * its key (0: no such exemption).
     */
    public record NoncurrentExpiration(int days, int newerNoncurrentVersions) {
        /**
         * True if the noncurrent version that became noncurrent at {@code since}, the {@code position}-th newest
         * noncurrent version of its key (1-based), is to be removed at {@code now}.
         */
        public boolean expires(Instant since, int position, Instant now) {
            return position > newerNoncurrentVersions && !now.isBefore(due(since, days));
        }
    }

    /** True if an upload initiated at {@code initiated} is to be aborted at {@code now}. */
    public boolean abortsUpload(Instant initiated, Instant now) {
        return abortAfterDays > 0 && !now.isBefore(due(initiated, abortAfterDays));
    }

    /** S3's rounding: {@code from} + {@code days}, moved on to the next midnight UTC unless it is one. */
    static Instant due(Instant from, int days) {
        Instant t = from.plus(Duration.ofDays(days));
        Instant midnight = LocalDate.ofInstant(t, ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant();
        return midnight.equals(t) ? t : midnight.plus(Duration.ofDays(1));
    }
}

package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.S3Response;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockMode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * S3 Object Lock's request and response headers: {@code x-amz-object-lock-mode},
 * {@code x-amz-object-lock-retain-until-date} (ISO 8601), {@code x-amz-object-lock-legal-hold} (ON or OFF) and
 * {@code x-amz-bypass-governance-retention}. Parsing refuses what S3 refuses; the engine decides the rest.
 */
public final class ObjectLockHeaders {
    public static final String MODE = "x-amz-object-lock-mode";
    public static final String RETAIN_UNTIL = "x-amz-object-lock-retain-until-date";
    public static final String LEGAL_HOLD = "x-amz-object-lock-legal-hold";
    public static final String BYPASS = "x-amz-bypass-governance-retention";

    private ObjectLockHeaders() {
    }

    /** The lock a write asks for; {@link ObjectLock#NONE} when it names none. */
    public static ObjectLock requested(S3Request r) {
        String mode = trimmed(r, MODE);
        String until = trimmed(r, RETAIN_UNTIL);
        String hold = trimmed(r, LEGAL_HOLD);
        if ((mode == null) != (until == null)) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                    "x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied");
        }
        ObjectLockMode parsedMode = null;
        if (mode != null) {
            parsedMode = ObjectLockMode.parse(mode);
            if (parsedMode == null) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Unknown wormMode directive.");
            }
        }
        boolean on = false;
        if (hold != null) {
            if (!hold.equals("ON") && !hold.equals("OFF")) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Legal Hold must be either of 'ON' or 'OFF'");
            }
            on = hold.equals("ON");
        }
        return new ObjectLock(parsedMode, until == null ? null : parseDate(until), on);
    }

    /**
     * A PutObject that asks for a lock must carry Content-MD5 or an x-amz-checksum (S3 requires one, so that a
     * retained object is the object the client sent): InvalidRequest otherwise.
     */
    public static void requireIntegrityHeader(S3Request r, byte[] contentMd5) {
        if (contentMd5 != null || !ObjectHeaders.checksumHeaders(r).isEmpty()
                || r.header("x-amz-sdk-checksum-algorithm") != null
                || (r.header("x-amz-trailer") != null && r.header("x-amz-trailer").contains("x-amz-checksum-"))) {
            return;
        }
        throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Content-MD5 OR x-amz-checksum- HTTP header is required for "
                + "Put Object requests with Object Lock parameters");
    }

    /** Whether the request carries {@code x-amz-bypass-governance-retention: true}. */
    public static boolean bypassGovernance(S3Request r) {
        return "true".equalsIgnoreCase(trimmed(r, BYPASS));
    }

    /** S3's date in lock headers and documents: ISO 8601 in UTC, to the millisecond. */
    public static String format(Instant t) {
        return XmlResponseWriter.iso(t.truncatedTo(ChronoUnit.MILLIS));
    }

    /** An ISO 8601 date with an offset ({@code Z} or {@code +hh:mm}); InvalidArgument if it is none. */
    public static Instant parseDate(String value) {
        try {
            return OffsetDateTime.parse(value.trim(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The retain until date is not a valid ISO 8601 date");
        }
    }

    /** Adds a version's lock to a HEAD or GET response: the retention if it has one, and its legal hold status. */
    public static void write(S3Response resp, ObjectLock lock) {
        if (lock.hasRetention()) {
            resp.header(MODE, lock.mode().name());
            resp.header(RETAIN_UNTIL, format(lock.retainUntil()));
        }
        resp.header(LEGAL_HOLD, lock.legalHold() ? "ON" : "OFF");
    }

    private static String trimmed(S3Request r, String name) {
        String v = r.header(name);
        return v == null ? null : v.trim();
    }
}

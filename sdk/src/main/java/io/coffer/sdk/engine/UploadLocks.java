package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockMode;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Object Lock a multipart upload asked for on CreateMultipartUpload, kept with the upload until its completion
 * gives it to the object's version: one entry in the upload's stored headers ({@value #HEADER}: mode, retain-until in
 * epoch milliseconds, legal hold; no schema change), which the completed object's attributes never carry.
 */
final class UploadLocks {
    static final String HEADER = "x-coffer-upload-object-lock";

    private UploadLocks() {
    }

    /** {@code attributes} with {@code lock} recorded; unchanged for NONE. */
    static ObjectAttributes stamp(ObjectAttributes attributes, ObjectLock lock) {
        if (lock == null || lock.equals(ObjectLock.NONE)) {
            return attributes;
        }
        Map<String, String> headers = new TreeMap<>(attributes.headers());
        headers.put(HEADER, (lock.hasRetention() ? lock.mode().name() + " " + lock.retainUntil().toEpochMilli()
                : "NONE 0") + " " + (lock.legalHold() ? "ON" : "OFF"));
        return attributes.withHeaders(headers);
    }

    /** The lock recorded in an upload's attributes; NONE for an upload that asked for none (or made before). */
    static ObjectLock lockOf(ObjectAttributes uploadAttributes) {
        String value = uploadAttributes.headers().get(HEADER);
        if (value == null) {
            return ObjectLock.NONE;
        }
        String[] f = value.split(" ");
        try {
            if (f.length == 3 && (f[2].equals("ON") || f[2].equals("OFF"))) {
                boolean hold = f[2].equals("ON");
                if (f[0].equals("NONE")) {
                    return new ObjectLock(null, null, hold);
                }
                return new ObjectLock(ObjectLockMode.valueOf(f[0]), Instant.ofEpochMilli(Long.parseLong(f[1])), hold);
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw CofferException.of(ErrorCode.INTERNAL_ERROR, "the upload's stored object lock is malformed");
    }

    /** An upload's attributes without the recorded lock: what its object stores. */
    static ObjectAttributes unstamp(ObjectAttributes attributes) {
        if (!attributes.headers().containsKey(HEADER)) {
            return attributes;
        }
        Map<String, String> headers = new TreeMap<>(attributes.headers());
        headers.remove(HEADER);
        return attributes.withHeaders(headers);
    }
}

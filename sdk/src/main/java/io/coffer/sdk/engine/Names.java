package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** S3's rules for bucket names and object keys, checked before anything is read or written. */
public final class Names {
    public static final int MAX_KEY_BYTES = 1024;
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private Names() {
    }

    /** Fails with {@code INVALID_BUCKET_NAME} unless {@code name} follows S3's general-purpose bucket naming rules. */
    public static void checkBucket(String name) {
        if (name == null || !BUCKET.matcher(name).matches() || name.contains("..") || name.contains(".-")
                || name.contains("-.") || IPV4.matcher(name).matches() || name.startsWith("xn--")
                || name.startsWith("sthree-") || name.endsWith("-s3alias") || name.endsWith("--ol-s3")) {
            throw CofferException.of(ErrorCode.INVALID_BUCKET_NAME, "The specified bucket is not valid.");
        }
    }

    /** Fails unless {@code key} is a non-empty, well-formed string of at most 1024 UTF-8 bytes. */
    public static void checkKey(String key) {
        if (key == null || key.isEmpty()) {
            throw CofferException.invalid("Object key must not be empty.");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c) ? i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(++i))
                    : Character.isLowSurrogate(c)) {
                throw CofferException.invalid("Object key is not valid Unicode.");
            }
        }
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw CofferException.of(ErrorCode.KEY_TOO_LONG, "Your key is too long.");
        }
    }
}

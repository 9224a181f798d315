package io.coffer.sdk;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * S3's rules for bucket names and object keys: the one place they live. The engine checks them before anything is
 * read or written; a gateway checks them as a request arrives and answers the same codes.
 */
public final class Names {
    /** S3's maximum key length in UTF-8 bytes. */
    public static final int MAX_KEY_BYTES = 1024;
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private Names() {
    }

    /**
     * True for a name S3 accepts for new general-purpose buckets: 3-63 characters of lower-case letters, digits, dots
     * and hyphens, starting and ending with a letter or digit, no two adjacent dots and no dot beside a hyphen, not an
     * IPv4 address, none of the prefixes and suffixes S3 reserves.
     */
    public static boolean isValidBucket(String name) {
        return name != null && BUCKET.matcher(name).matches() && !name.contains("..") && !name.contains(".-")
                && !name.contains("-.") && !IPV4.matcher(name).matches()
                && !(name.startsWith("xn--") || name.startsWith("sthree-") || name.startsWith("amzn-s3-demo-")
                || name.endsWith("-s3alias") || name.endsWith("--ol-s3") || name.endsWith(".mrap")
                || name.endsWith("--x-s3") || name.endsWith("--table-s3"));
    }

    /** Fails with {@code INVALID_BUCKET_NAME} unless {@link #isValidBucket}. */
    public static void checkBucket(String name) {
        if (!isValidBucket(name)) {
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
        checkKeyLength(key);
    }

    /** Fails with {@code KEY_TOO_LONG} when {@code key} is over {@link #MAX_KEY_BYTES} UTF-8 bytes; null passes. */
    public static void checkKeyLength(String key) {
        if (key != null && key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw CofferException.of(ErrorCode.KEY_TOO_LONG, "Your key is too long.");
        }
    }
}

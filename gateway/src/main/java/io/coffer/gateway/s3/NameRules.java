package io.coffer.gateway.s3;

import java.nio.charset.StandardCharsets;

/** S3's bucket naming rules and key length limit, checked before a request reaches the engine. */
public final class NameRules {
    /** S3's maximum key length in UTF-8 bytes. */
    public static final int MAX_KEY_BYTES = 1024;

    private NameRules() {
    }

    /**
     * True for a name S3 accepts for new buckets: 3-63 characters of lower-case letters, digits, dots and hyphens,
     * starting and ending with a letter or digit, no two adjacent dots, not an IP address, none of the reserved
     * prefixes and suffixes.
     */
    public static boolean isValid(String name) {
        if (name == null || name.length() < 3 || name.length() > 63) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) {
                return false;
            }
        }
        if (!Character.isLetterOrDigit(name.charAt(0)) || !Character.isLetterOrDigit(name.charAt(name.length() - 1))) {
            return false;
        }
        if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
            return false;
        }
        if (name.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            return false;
        }
        return !(name.startsWith("xn--") || name.startsWith("sthree-") || name.startsWith("amzn-s3-demo-")
                || name.endsWith("-s3alias") || name.endsWith("--ol-s3") || name.endsWith(".mrap")
                || name.endsWith("--x-s3") || name.endsWith("--table-s3"));
    }

    /** Throws InvalidBucketName unless {@link #isValid}. */
    public static void check(String name) {
        if (!isValid(name)) {
            throw new S3Exception(S3ErrorCode.INVALID_BUCKET_NAME, "The specified bucket is not valid.");
        }
    }

    /** Throws KeyTooLongError for keys over 1024 UTF-8 bytes. */
    public static void checkKey(String key) {
        if (key != null && key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw new S3Exception(S3ErrorCode.KEY_TOO_LONG_ERROR);
        }
    }
}

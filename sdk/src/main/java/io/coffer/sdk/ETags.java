package io.coffer.sdk;

/**
 * S3's entity tags as conditions name them (If-Match, If-None-Match, x-amz-copy-source-if-*, a part's ETag in
 * CompleteMultipartUpload): the one place a tag is unquoted and a condition matched against an object's ETag.
 */
public final class ETags {
    private ETags() {
    }

    /** The bare tag: surrounding whitespace, a weak {@code W/} prefix and the surrounding quotes removed. */
    public static String unquote(String etag) {
        String e = etag.trim();
        if (e.startsWith("W/")) {
            e = e.substring(2);
        }
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        return e;
    }

    /**
     * True when {@code condition} names {@code etag}: it is {@code *} (any object), or a comma-separated list of
     * tags, quoted or not, one of which is {@code etag} (compared unquoted).
     */
    public static boolean matches(String condition, String etag) {
        String have = etag == null ? "" : unquote(etag);
        for (String candidate : condition.split(",")) {
            String c = unquote(candidate);
            if (c.equals("*") || c.equals(have)) {
                return true;
            }
        }
        return false;
    }
}

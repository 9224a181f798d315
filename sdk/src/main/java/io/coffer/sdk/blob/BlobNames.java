package io.coffer.sdk.blob;

/**
 * Validation of blob names and listing prefixes against the {@link BlobStore} naming contract: characters
 * {@code [a-z0-9/._-]}, at most {@value #MAX_LENGTH} characters, never starting with '/' nor containing "..".
 */
public final class BlobNames {

    /** The longest name a {@link BlobStore} accepts. */
    public static final int MAX_LENGTH = 512;

    private static final String PARENT_REFERENCE = "..";
    private static final char SEPARATOR = '/';

    private BlobNames() {
    }

    /** Whether {@code name} is a valid, non-empty blob name. */
    public static boolean isValid(String name) {
        return name != null && !name.isEmpty() && isValidPrefix(name);
    }

    /**
     * Whether {@code prefix} is a valid listing prefix: like a name but may be empty (which lists everything).
     */
    public static boolean isValidPrefix(String prefix) {
        if (prefix == null || prefix.length() > MAX_LENGTH) {
            return false;
        }
        if (!prefix.isEmpty() && prefix.charAt(0) == SEPARATOR) {
            return false;
        }
        if (prefix.contains(PARENT_REFERENCE)) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (!isAllowed(prefix.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Returns {@code name} or throws {@link IllegalArgumentException} if it is not a valid blob name. */
    public static String requireValid(String name) {
        if (!isValid(name)) {
            throw new IllegalArgumentException("invalid blob name: " + describe(name));
        }
        return name;
    }

    /** Returns {@code prefix} or throws {@link IllegalArgumentException} if it is not a valid listing prefix. */
    public static String requireValidPrefix(String prefix) {
        if (!isValidPrefix(prefix)) {
            throw new IllegalArgumentException("invalid blob name prefix: " + describe(prefix));
        }
        return prefix;
    }

    /** Checks the arguments of {@link BlobStore#get}: a valid name and a non-negative offset. */
    static void checkGet(String name, long offset) {
        requireValid(name);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " for blob " + name);
        }
    }

    private static boolean isAllowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == SEPARATOR || c == '.' || c == '_'
                || c == '-';
    }

    private static String describe(String s) {
        if (s == null) {
            return "null";
        }
        String shown = s.length() > 64 ? s.substring(0, 64) + "... (" + s.length() + " chars)" : s;
        return '"' + shown + '"';
    }
}

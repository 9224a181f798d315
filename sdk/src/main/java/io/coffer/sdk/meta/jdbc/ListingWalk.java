package io.coffer.sdk.meta.jdbc;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The key-range walk that object and upload listings share, and what it found. Keys are compared as their UTF-8
 * bytes, unsigned (S3's order); a prefix is the index range {@code key >= prefix AND key < successor(prefix)}. With a
 * delimiter, a key that holds it after the prefix yields a common prefix and the walk seeks past it, so each common
 * prefix costs one index seek.
 */
final class ListingWalk<R> {
    /** The most rows one fetch asks for; bigger pages go in several. */
    private static final int MAX_BATCH = 1001;

    final List<R> items = new ArrayList<>();
    final List<byte[]> prefixes = new ArrayList<>();
    boolean truncated;
    byte[] lastKey;
    String lastUploadId;

    private ListingWalk() {
    }

    /** A lower bound of a seek: keys above {@code key} (or equal when inclusive), or equal with a greater upload id. */
    record Marker(byte[] key, boolean inclusive, String uploadIdAfter) {
        static Marker atLeast(byte[] key) {
            return new Marker(key, true, null);
        }

        static Marker after(byte[] key, String uploadId) {
            return new Marker(key, false, uploadId);
        }

        /** False for the inclusive empty key, which bounds nothing (and an empty blob is best not bound at all). */
        boolean bound() {
            return !(inclusive && key.length == 0);
        }
    }

    /** Fetches up to {@code limit} rows from {@code lower} (and below {@code upper}, when not null), in key order. */
    @FunctionalInterface
    interface Fetch<R> {
        List<R> fetch(Marker lower, byte[] upper, int limit) throws SQLException;
    }

    /**
     * Walks the key index from {@code start} for keys starting with {@code prefix}. Without a delimiter, it fetches
     * one batch of {@code max + 1} rows. With one, a key holding the delimiter after the prefix yields a common prefix
     * and the walk seeks to the successor of that prefix. Common prefixes that do not sort after {@code after} are
     * skipped (they were returned by the previous page).
     */
    static <R> ListingWalk<R> walk(byte[] prefix, byte[] delimiter, byte[] after, Marker start, int max,
                                   Fetch<R> fetch, Function<R, byte[]> keyOf,
                                   Function<R, String> uploadIdOf) throws SQLException {
        ListingWalk<R> walk = new ListingWalk<>();
        if (max <= 0) {
            return walk;
        }
        byte[] upper = successor(prefix);
        Marker lower = start;
        int count = 0;
        outer:
        while (true) {
            // one more row than the page still needs tells whether it is truncated; huge pages go in batches
            int limit = (int) Math.min((long) max - count + 1, MAX_BATCH);
            List<R> rows = fetch.fetch(lower, upper, limit);
            boolean seeked = false;
            for (R row : rows) {
                byte[] key = keyOf.apply(row);
                int at = delimiter == null ? -1 : indexOf(key, delimiter, prefix.length);
                if (at < 0) {
                    if (count == max) {
                        walk.truncated = true;
                        break outer;
                    }
                    walk.items.add(row);
                    count++;
                    walk.lastKey = key;
                    walk.lastUploadId = uploadIdOf.apply(row);
                    lower = Marker.after(key, walk.lastUploadId);
                    continue;
                }
                byte[] common = Arrays.copyOf(key, at + delimiter.length);
                if (after == null || Arrays.compareUnsigned(common, after) > 0) {
                    if (count == max) {
                        walk.truncated = true;
                        break outer;
                    }
                    walk.prefixes.add(common);
                    count++;
                    walk.lastKey = common;
                    walk.lastUploadId = null;
                }
                byte[] next = successor(common);
                if (next == null) {
                    break outer;
                }
                lower = Marker.atLeast(next);
                seeked = true;
                break;
            }
            if (!seeked && rows.size() < limit) {
                break;
            }
        }
        return walk;
    }

    static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * The smallest byte string greater than every string starting with {@code prefix}: trailing 0xFF bytes dropped
     * and the last byte incremented; null (unbounded) for the empty prefix or one made only of 0xFF bytes.
     */
    static byte[] successor(byte[] prefix) {
        int end = prefix.length;
        while (end > 0 && prefix[end - 1] == (byte) 0xFF) {
            end--;
        }
        if (end == 0) {
            return null;
        }
        byte[] next = Arrays.copyOf(prefix, end);
        next[end - 1]++;
        return next;
    }
}

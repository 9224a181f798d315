package io.coffer.sdk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * S3's rules for tag sets (object and bucket tagging): at most 10 tags on an object and 50 on a bucket, keys of 1 to
 * 128 and values of up to 256 UTF-16 code units, made of letters, digits, spaces and {@code + - = . _ : / @}, no key
 * twice and none starting with {@code aws:} (reserved). A broken rule is {@link ErrorCode#INVALID_TAG}.
 */
public final class TagSets {
    public static final int MAX_OBJECT_TAGS = 10;
    public static final int MAX_BUCKET_TAGS = 50;
    public static final int MAX_KEY_LENGTH = 128;
    public static final int MAX_VALUE_LENGTH = 256;
    private static final Pattern ALLOWED = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

    private TagSets() {
    }

    /** One tag as a client sent it, before the set is checked. */
    public record Tag(String key, String value) {
    }

    /** An object's tag set, checked, as a map (keys in order). */
    public static Map<String, String> objectTags(List<Tag> tags) {
        return check(tags, MAX_OBJECT_TAGS, "Object tags cannot be greater than " + MAX_OBJECT_TAGS);
    }

    /** An object's tag set given as a map (no key can repeat), checked. */
    public static Map<String, String> objectTags(Map<String, String> tags) {
        return objectTags(tags.entrySet().stream().map(e -> new Tag(e.getKey(), e.getValue())).toList());
    }

    /** A bucket's tag set, checked, as a map (keys in order). */
    public static Map<String, String> bucketTags(List<Tag> tags) {
        return check(tags, MAX_BUCKET_TAGS, "Bucket tag count cannot be greater than " + MAX_BUCKET_TAGS);
    }

    private static Map<String, String> check(List<Tag> tags, int max, String tooMany) {
        if (tags.size() > max) {
            throw invalid(tooMany);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Tag t : tags) {
            String key = t.key();
            String value = t.value() == null ? "" : t.value();
            if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH || !ALLOWED.matcher(key).matches()) {
                throw invalid("The TagKey you have provided is invalid");
            }
            if (value.length() > MAX_VALUE_LENGTH || !ALLOWED.matcher(value).matches()) {
                throw invalid("The TagValue you have provided is invalid");
            }
            if (key.startsWith("aws:")) {
                throw invalid("Your TagKey cannot be prefixed with aws:");
            }
            if (out.put(key, value) != null) {
                throw invalid("Cannot provide multiple Tags with the same key");
            }
        }
        return out;
    }

    private static CofferException invalid(String message) {
        return CofferException.of(ErrorCode.INVALID_TAG, message);
    }
}

package io.coffer.gateway.s3.lifecycle;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.TagSets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Which objects a lifecycle rule applies to: a key prefix, tags (all must be on the object), and object size bounds
 * (strictly greater than, strictly less than), written as the rule's legacy top-level {@code Prefix} or as its
 * {@code Filter} (one of {@code Prefix}, {@code Tag}, {@code ObjectSizeGreaterThan}, {@code ObjectSizeLessThan},
 * {@code And}, or empty: every object). {@code form} keeps how the client wrote it, so GetBucketLifecycleConfiguration
 * answers the same shape.
 *
 * @param sizeGreaterThan -1 when not set
 * @param sizeLessThan    -1 when not set
 */
public record LifecycleFilter(Form form, String prefix, Map<String, String> tags, long sizeGreaterThan,
                              long sizeLessThan) {
    /** How the rule names its objects. */
    public enum Form { LEGACY_PREFIX, EMPTY, PREFIX, TAG, SIZE_GREATER_THAN, SIZE_LESS_THAN, AND }

    public LifecycleFilter {
        prefix = prefix == null ? "" : prefix;
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** The rule's top-level {@code Prefix} (the API before {@code Filter}). */
    static LifecycleFilter legacyPrefix(String prefix) {
        return new LifecycleFilter(Form.LEGACY_PREFIX, prefix, Map.of(), -1, -1);
    }

    /** Reads a {@code Filter} element: MalformedXML unless it holds at most one predicate, each at most once. */
    static LifecycleFilter parse(XmlElement filter) {
        List<XmlElement> parts = filter.children();
        if (parts.size() > 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (parts.isEmpty()) {
            return new LifecycleFilter(Form.EMPTY, "", Map.of(), -1, -1);
        }
        XmlElement p = parts.get(0);
        return switch (p.name()) {
            case "Prefix" -> new LifecycleFilter(Form.PREFIX, text(p), Map.of(), -1, -1);
            case "Tag" -> new LifecycleFilter(Form.TAG, "", tags(List.of(p)), -1, -1);
            case "ObjectSizeGreaterThan" -> sized(Form.SIZE_GREATER_THAN, "", Map.of(), size(p), -1);
            case "ObjectSizeLessThan" -> sized(Form.SIZE_LESS_THAN, "", Map.of(), -1, size(p));
            case "And" -> and(p);
            default -> throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        };
    }

    private static LifecycleFilter and(XmlElement and) {
        for (XmlElement c : and.children()) {
            if (!List.of("Prefix", "Tag", "ObjectSizeGreaterThan", "ObjectSizeLessThan").contains(c.name())) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
        }
        if (and.children().isEmpty() || and.all("Prefix").size() > 1 || and.all("ObjectSizeGreaterThan").size() > 1
                || and.all("ObjectSizeLessThan").size() > 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        String prefix = and.all("Prefix").isEmpty() ? "" : text(and.all("Prefix").get(0));
        long greater = and.all("ObjectSizeGreaterThan").isEmpty() ? -1 : size(and.all("ObjectSizeGreaterThan").get(0));
        long less = and.all("ObjectSizeLessThan").isEmpty() ? -1 : size(and.all("ObjectSizeLessThan").get(0));
        return sized(Form.AND, prefix, tags(and.all("Tag")), greater, less);
    }

    private static LifecycleFilter sized(Form form, String prefix, Map<String, String> tags, long greater, long less) {
        if (less == 0) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "'ObjectSizeLessThan' must be greater than 0.");
        }
        if (greater >= 0 && less >= 0 && greater >= less) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                    "'ObjectSizeGreaterThan' must be less than 'ObjectSizeLessThan'.");
        }
        return new LifecycleFilter(form, prefix, tags, greater, less);
    }

    private static Map<String, String> tags(List<XmlElement> tagElements) {
        List<TagSets.Tag> tags = new ArrayList<>();
        for (XmlElement t : tagElements) {
            String key = t.childText("Key");
            if (key == null || t.all("Key").size() != 1 || t.all("Value").size() > 1) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            String value = t.childText("Value");
            tags.add(new TagSets.Tag(key, value == null ? "" : value));
        }
        return TagSets.objectTags(tags);
    }

    private static long size(XmlElement e) {
        try {
            long n = Long.parseLong(text(e).trim());
            if (n < 0) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "'" + e.name() + "' must not be negative.");
            }
            return n;
        } catch (NumberFormatException x) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
    }

    private static String text(XmlElement e) {
        if (!e.children().isEmpty()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        return e.text() == null ? "" : e.text();
    }

    /** True if the filter names tags: such a rule cannot expire delete markers or abort uploads (neither has tags). */
    public boolean hasTags() {
        return !tags.isEmpty();
    }

    /** True if the filter bounds object size (uploads and delete markers have no size it could apply to). */
    public boolean hasSize() {
        return sizeGreaterThan >= 0 || sizeLessThan >= 0;
    }

    /** True if the key starts with the prefix (all a delete marker or an upload can be matched on). */
    public boolean matchesKey(String key) {
        return key.startsWith(prefix);
    }

    /**
     * True if an object of this key and size, with the tags {@code objectTags} gives (asked only when the filter has
     * tags and the key and size match), is one the rule applies to.
     */
    public boolean matches(String key, long size, Supplier<Map<String, String>> objectTags) {
        if (!matchesKey(key) || sizeGreaterThan >= 0 && size <= sizeGreaterThan
                || sizeLessThan >= 0 && size >= sizeLessThan) {
            return false;
        }
        if (tags.isEmpty()) {
            return true;
        }
        Map<String, String> have = objectTags.get();
        for (Map.Entry<String, String> t : tags.entrySet()) {
            if (!t.getValue().equals(have.get(t.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Writes the filter in the form it was read in. */
    void write(XmlResponseWriter w) {
        if (form == Form.LEGACY_PREFIX) {
            w.element("Prefix", prefix);
            return;
        }
        w.start("Filter");
        switch (form) {
            case PREFIX -> w.element("Prefix", prefix);
            case TAG -> tags.forEach((k, v) -> writeTag(w, k, v));
            case SIZE_GREATER_THAN -> w.element("ObjectSizeGreaterThan", sizeGreaterThan);
            case SIZE_LESS_THAN -> w.element("ObjectSizeLessThan", sizeLessThan);
            case AND -> {
                w.start("And");
                if (!prefix.isEmpty()) {
                    w.element("Prefix", prefix);
                }
                tags.forEach((k, v) -> writeTag(w, k, v));
                if (sizeGreaterThan >= 0) {
                    w.element("ObjectSizeGreaterThan", sizeGreaterThan);
                }
                if (sizeLessThan >= 0) {
                    w.element("ObjectSizeLessThan", sizeLessThan);
                }
                w.end();
            }
            default -> {
            }
        }
        w.end();
    }

    private static void writeTag(XmlResponseWriter w, String key, String value) {
        w.start("Tag").element("Key", key).element("Value", value).end();
    }
}

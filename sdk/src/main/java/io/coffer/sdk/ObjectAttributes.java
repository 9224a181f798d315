package io.coffer.sdk;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a client stores beside an object's bytes and gets back on GET and HEAD.
 *
 * @param contentType  the Content-Type (null: {@code binary/octet-stream} is reported)
 * @param userMetadata x-amz-meta-* pairs, names lower-case without the prefix
 * @param headers      other stored response headers by lower-case name: content-encoding, content-disposition,
 *                     content-language, cache-control, expires
 * @param checksums    additional checksums by algorithm name (CRC32, CRC32C, CRC64NVME, SHA1, SHA256), base64 values
 * @param tags         the object's tag set (S3 object tagging, checked by {@link TagSets}), sealed in its manifest
 */
public record ObjectAttributes(String contentType, Map<String, String> userMetadata, Map<String, String> headers,
                               Map<String, String> checksums, Map<String, String> tags) {
    public static final ObjectAttributes EMPTY = new ObjectAttributes(null, Map.of(), Map.of(), Map.of());

    public ObjectAttributes {
        userMetadata = sorted(userMetadata);
        headers = sorted(headers);
        checksums = sorted(checksums);
        tags = sorted(tags);
    }

    /** Attributes without tags. */
    public ObjectAttributes(String contentType, Map<String, String> userMetadata, Map<String, String> headers,
                            Map<String, String> checksums) {
        this(contentType, userMetadata, headers, checksums, Map.of());
    }

    public static ObjectAttributes ofContentType(String contentType) {
        return new ObjectAttributes(contentType, Map.of(), Map.of(), Map.of());
    }

    public ObjectAttributes withChecksums(Map<String, String> newChecksums) {
        return new ObjectAttributes(contentType, userMetadata, headers, newChecksums, tags);
    }

    /** These attributes with another tag set (empty: none). */
    public ObjectAttributes withTags(Map<String, String> newTags) {
        return new ObjectAttributes(contentType, userMetadata, headers, checksums, newTags);
    }

    private static Map<String, String> sorted(Map<String, String> m) {
        return m == null || m.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(m));
    }
}

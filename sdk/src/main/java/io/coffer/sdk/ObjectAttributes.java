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
    /**
     * The stored header that holds an object's ACL (the gateway's encoding; absent: private). With the tags, it is
     * what the object tagging and ACL actions may change on an existing version (docs/FORMAT.md, "Version attribute
     * records"); it is never answered as a response header.
     */
    public static final String ACL_HEADER = "x-amz-acl";

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

    /** These attributes with other stored headers. */
    public ObjectAttributes withHeaders(Map<String, String> newHeaders) {
        return new ObjectAttributes(contentType, userMetadata, newHeaders, checksums, tags);
    }

    /** These attributes with the stored {@link #ACL_HEADER} set to {@code acl} (null: removed). */
    public ObjectAttributes withAcl(String acl) {
        Map<String, String> h = new TreeMap<>(headers);
        if (acl == null) {
            h.remove(ACL_HEADER);
        } else {
            h.put(ACL_HEADER, acl);
        }
        return withHeaders(h);
    }

    private static Map<String, String> sorted(Map<String, String> m) {
        return m == null || m.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(m));
    }
}

package io.coffer.sdk;

import java.util.List;

/**
 * One page of ListObjectVersions: versions by key in ascending UTF-8 byte order, each key's newest first, and common
 * prefixes.
 *
 * @param nextKeyMarker       when {@code truncated}, the last key or common prefix returned
 * @param nextVersionIdMarker when {@code truncated} after a version, its version id (null after a common prefix)
 */
public record VersionPage(List<ObjectVersion> versions, List<String> commonPrefixes, boolean truncated,
                          String nextKeyMarker, String nextVersionIdMarker) {
    public VersionPage {
        versions = List.copyOf(versions);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}

package io.coffer.sdk;

import java.util.List;

/**
 * One page of a listing: objects and common prefixes, each in ascending UTF-8 byte order of the key.
 *
 * @param nextAfter when {@code truncated}, the last key or common prefix returned: pass it as {@code after} to continue
 */
public record ObjectPage(List<ObjectSummary> objects, List<String> commonPrefixes, boolean truncated, String nextAfter) {
}

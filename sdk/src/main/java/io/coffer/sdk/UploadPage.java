package io.coffer.sdk;

import java.util.List;

/** One page of in-progress uploads ordered by (key bytes, upload id), plus common prefixes when a delimiter is used. */
public record UploadPage(List<UploadRecord> uploads, List<String> commonPrefixes, boolean truncated,
                         String nextKeyMarker, String nextUploadIdMarker) {
}

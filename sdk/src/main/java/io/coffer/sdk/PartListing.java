package io.coffer.sdk;

import java.util.List;

/** A page of ListParts. */
public record PartListing(String bucket, String key, String uploadId, List<PartInfo> parts, boolean truncated,
                          int nextPartNumberMarker) {
}

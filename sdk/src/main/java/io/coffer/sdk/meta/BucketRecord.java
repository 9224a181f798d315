package io.coffer.sdk.meta;

import java.time.Instant;

/** A bucket: its name, the tenant that owns it, its region (LocationConstraint) and creation time. */
public record BucketRecord(String name, String owner, String region, Instant created) {
}

package io.coffer.sdk;

import java.time.Instant;

/** A bucket: its name, the tenant that owns it, its region (LocationConstraint) and creation time. */
public record Bucket(String name, String owner, String region, Instant created) {
}

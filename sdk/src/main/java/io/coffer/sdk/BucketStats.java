package io.coffer.sdk;

/** What one bucket holds and costs; its owner is the tenant it counts toward. */
public record BucketStats(String bucket, String owner, UsageStats usage) {
}

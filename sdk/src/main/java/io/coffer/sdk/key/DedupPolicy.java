package io.coffer.sdk.key;

import java.util.List;

/**
 * DupLESS's canDedup: which chunks get message-locked keys. Chunks smaller than {@code minSize} (default 1 KiB, as
 * in the paper: for them the key-server round trip costs more than dedup saves, and short content is the easiest to
 * brute-force) and chunks of objects under an excluded bucket/prefix get random keys and never reach a key server.
 */
public record DedupPolicy(int minSize, List<Exclusion> exclusions) {
    public static final int DEFAULT_MIN_SIZE = 1024;
    public static final DedupPolicy DEFAULT = new DedupPolicy(DEFAULT_MIN_SIZE, List.of());

    public DedupPolicy {
        if (minSize < 0) {
            throw new IllegalArgumentException("minSize must be >= 0");
        }
        exclusions = List.copyOf(exclusions);
    }

    /** Objects in {@code bucket} whose key starts with {@code prefix} ("" for the whole bucket) never dedup. */
    public record Exclusion(String bucket, String prefix) {
    }

    /** True if chunks of this object may be deduplicated at all. */
    public boolean objectMayDedup(String bucket, String key) {
        for (Exclusion e : exclusions) {
            if (e.bucket().equals(bucket) && key.startsWith(e.prefix())) {
                return false;
            }
        }
        return true;
    }

    public boolean chunkMayDedup(int length) {
        return length >= minSize;
    }
}

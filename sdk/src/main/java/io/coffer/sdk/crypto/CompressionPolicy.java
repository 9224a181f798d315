package io.coffer.sdk.crypto;

import java.util.List;

/**
 * Which new chunks are compressed before they are encrypted (chunk format 3, docs/FORMAT.md): all of them where it
 * pays when {@code enabled} (the default), except those of objects under an excluded bucket or prefix, at zstd
 * {@code level}. Chunks already stored keep their form; reads handle every form whatever this says.
 *
 * <p>An exclusion is for a bucket whose objects mix secrets with data an attacker chooses (docs/SECURITY.md,
 * "Compression before encryption"), or whose content is known not to compress.
 */
public record CompressionPolicy(boolean enabled, int level, List<Exclusion> exclusions) {
    public static final CompressionPolicy DEFAULT = new CompressionPolicy(true, ChunkCompressor.DEFAULT_LEVEL,
            List.of());
    public static final CompressionPolicy OFF = new CompressionPolicy(false, ChunkCompressor.DEFAULT_LEVEL, List.of());

    public CompressionPolicy {
        if (level < ChunkCompressor.MIN_LEVEL || level > ChunkCompressor.MAX_LEVEL || level == 0) {
            throw new IllegalArgumentException("compression level must be between " + ChunkCompressor.MIN_LEVEL
                    + " and " + ChunkCompressor.MAX_LEVEL + " and not 0, got " + level);
        }
        exclusions = List.copyOf(exclusions);
    }

    /** Objects in {@code bucket} whose key starts with {@code prefix} ("" for the whole bucket) are not compressed. */
    public record Exclusion(String bucket, String prefix) {
        public Exclusion {
            if (bucket == null || bucket.isEmpty() || prefix == null) {
                throw new IllegalArgumentException("an exclusion needs a bucket and a prefix (\"\" for all)");
            }
        }
    }

    /** True if new chunks of this object are compressed where it pays. */
    public boolean objectMayCompress(String bucket, String key) {
        if (!enabled) {
            return false;
        }
        for (Exclusion e : exclusions) {
            if (e.bucket().equals(bucket) && key.startsWith(e.prefix())) {
                return false;
            }
        }
        return true;
    }
}

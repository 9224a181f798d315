package io.coffer.sdk.layer;

import io.coffer.sdk.similarity.LayerSpacePolicy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which buckets store gzip objects in SimEnc's layer mode (docs/FORMAT.md, "Layer-mode objects"), in which of the
 * paper's modes, and how the partially decoded space is cut. Off for every bucket unless named.
 *
 * @param modes           bucket name to its {@link LayerSpacePolicy} text ({@code high}, {@code basic:N},
 *                        {@code flexible[:BITS:HASHES]})
 * @param subChunkAverage FastCDC's average sub-chunk size in the partially decoded space (minimum half of it, maximum
 *                        four times it)
 * @param threshold       the Hamming distance (of 256-bit codes) within which a 512 KiB chunk joins an existing
 *                        cluster, and so shares its key
 */
public record LayerModePolicy(Map<String, String> modes, int subChunkAverage, int threshold) {
    /** The paper's fixed chunk size in the partially decoded space. */
    public static final int CHUNK_SIZE = 512 << 10;
    /** The paper's largest sub-chunk average, 1 KiB. */
    public static final int DEFAULT_SUB_CHUNK_AVERAGE = 1 << 10;
    /**
     * FastCDC's average sub-chunk size in the decompressed space (layers with a zlib recipe): text deduplicates at
     * 8 KiB as well as at 1 KiB while manifests and per-chunk sealing cost an eighth (docs/BENCHMARKS.md).
     */
    public static final int DECOMPRESSED_SUB_CHUNK_AVERAGE = 8 << 10;
    /**
     * A quarter of the 256 code bits: two chunks of resemblance 1/2 differ in about a quarter of their MinHash bits
     * (FinesseSketcher), so chunks that share at least half their windows share a key.
     */
    public static final int DEFAULT_THRESHOLD = 64;
    public static final LayerModePolicy OFF = new LayerModePolicy(Map.of(), DEFAULT_SUB_CHUNK_AVERAGE,
            DEFAULT_THRESHOLD);

    public LayerModePolicy {
        modes = Map.copyOf(modes);
        modes.values().forEach(LayerSpacePolicy::parse); // fails early on a bad mode
        if (subChunkAverage < 128 || subChunkAverage > (1 << 20) || Integer.bitCount(subChunkAverage) != 1) {
            throw new IllegalArgumentException("layer sub-chunk average must be a power of two in [128, 1 MiB], got "
                    + subChunkAverage);
        }
        if (threshold < 0 || threshold > 256) {
            throw new IllegalArgumentException("layer threshold must be in [0, 256], got " + threshold);
        }
    }

    /**
     * Parses {@code BUCKET=MODE,BUCKET=MODE...} (a bucket alone means {@code high}); empty or null: off everywhere.
     */
    public static LayerModePolicy parse(String text, int subChunkAverage, int threshold) {
        Map<String, String> modes = new LinkedHashMap<>();
        if (text != null) {
            for (String item : text.split(",")) {
                String t = item.trim();
                if (t.isEmpty()) {
                    continue;
                }
                int eq = t.indexOf('=');
                String bucket = eq < 0 ? t : t.substring(0, eq).trim();
                String mode = eq < 0 ? "high" : t.substring(eq + 1).trim();
                if (bucket.isEmpty()) {
                    throw new IllegalArgumentException("layer-mode entries are BUCKET[=MODE], got '" + t + "'");
                }
                modes.put(bucket, mode);
            }
        }
        return new LayerModePolicy(modes, subChunkAverage, threshold);
    }

    /** The layer mode of {@code bucket}, if it has one. */
    public Optional<String> modeOf(String bucket) {
        return Optional.ofNullable(modes.get(bucket));
    }

    public boolean isOff() {
        return modes.isEmpty();
    }
}

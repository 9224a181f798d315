package io.coffer.sdk.layer;

import io.coffer.sdk.similarity.LayerSpacePolicy;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which buckets store gzip objects in SimEnc's layer mode (docs/FORMAT.md, "Layer-mode objects"), in which of the
 * paper's modes, and how the partially decoded space is cut. Off for every bucket unless named here (the config key
 * {@code layer-mode}, {@code COFFER_LAYER_MODE}) or by the bucket's own document {@value #BUCKET_CONFIG}, which wins.
 *
 * @param modes           bucket name to its {@link LayerSpacePolicy} text ({@code high}, {@code basic:N},
 *                        {@code flexible[:BITS:HASHES]})
 * @param subChunkAverage FastCDC's average sub-chunk size in the partially decoded space (minimum half of it, maximum
 *                        four times it)
 * @param threshold       the Hamming distance (of 256-bit codes) within which a 512 KiB chunk joins an existing
 *                        cluster, and so shares its key
 * @param keyAssignment   how 512 KiB chunks are grouped under one key: SimEnc's clusters (what every bucket uses), or
 *                        the LSH-MLE baseline's FirstFit groups, for benchmarks only ({@link KeyAssignment})
 * @param zlibRecipes     whether a layer that java.util.zip's zlib reproduces is stored decompressed with a zlib recipe
 *                        (docs/FORMAT.md, "Zlib recipes": fewer bytes stored, but every GET deflates it again at the
 *                        recipe's level) rather than as tokens (restored by Coffer's re-encoder, several times faster)
 */
public record LayerModePolicy(Map<String, String> modes, int subChunkAverage, int threshold,
                              KeyAssignment keyAssignment, boolean zlibRecipes) {
    /** The paper's fixed chunk size in the partially decoded space. */
    public static final int CHUNK_SIZE = 512 << 10;
    /** The paper's largest sub-chunk average, 1 KiB. */
    public static final int DEFAULT_SUB_CHUNK_AVERAGE = 1 << 10;
    /**
     * FastCDC's average sub-chunk size in the decompressed space (layers with a zlib recipe): there SimEnc's pipeline
     * stored 152.6 MB of the dev dataset with 2/4/8 KiB sub-chunks against 209.8 MB with 0.2/0.5/1 KiB, the manifest
     * entries and per-sub-chunk sealing costing an eighth as much (docs/BENCHMARKS.md, "The pipeline experiment";
     * the table is in benchmarks/notes/dedup-layers-2026-11.md).
     */
    public static final int DECOMPRESSED_SUB_CHUNK_AVERAGE = 8 << 10;
    /**
     * A quarter of the 256 code bits: two chunks of resemblance 1/2 differ in about a quarter of their MinHash bits
     * (FinesseSketcher), so chunks that share at least half their windows share a key.
     */
    public static final int DEFAULT_THRESHOLD = 64;
    /** The bucket configuration document that sets a bucket's layer mode, over the config key. */
    public static final String BUCKET_CONFIG = "layer-mode";
    private static final String OFF_DOCUMENT = "off";
    public static final LayerModePolicy OFF = new LayerModePolicy(Map.of(), DEFAULT_SUB_CHUNK_AVERAGE,
            DEFAULT_THRESHOLD);

    /**
     * Which chunks of the layer path share a key. {@link #CLUSTERS} is Coffer's layer mode and the only assignment a
     * configuration or bucket setting gives; {@link #FIRST_FIT} exists so that a benchmark can measure the LSH-MLE
     * baseline through the same engine (docs/BENCHMARKS.md "Layer mode in the engine"); no gateway setting selects it.
     */
    public enum KeyAssignment {
        /**
         * SimEnc: a chunk joins the cluster whose centroid code is within the threshold (online Algorithm 1); one
         * key per cluster, the key source's key for its representative chunk's SHA-256.
         */
        CLUSTERS,
        /**
         * LSH-MLE (SimEnc's baseline): a chunk sharing a Finesse super-feature with an earlier chunk takes that
         * chunk's group (FirstFit); one key per group, the key source's key for its first chunk's SHA-256. The
         * threshold is not used.
         */
        FIRST_FIT
    }

    /** Coffer's layer mode: {@link KeyAssignment#CLUSTERS}, zlib recipes where they reproduce a layer. */
    public LayerModePolicy(Map<String, String> modes, int subChunkAverage, int threshold) {
        this(modes, subChunkAverage, threshold, KeyAssignment.CLUSTERS, true);
    }

    public LayerModePolicy {
        modes = Map.copyOf(modes);
        Objects.requireNonNull(keyAssignment, "keyAssignment");
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

    /** The layer mode of {@code bucket} by this setting alone (the config key), if it has one. */
    public Optional<String> modeOf(String bucket) {
        return Optional.ofNullable(modes.get(bucket));
    }

    /**
     * The layer mode of {@code bucket} given its bucket-level document {@value #BUCKET_CONFIG} ({@code null}: none):
     * the document wins over the config key, {@code off} turning layer mode off for a bucket the key names.
     */
    public Optional<String> modeOf(String bucket, byte[] bucketDocument) {
        if (bucketDocument == null) {
            return modeOf(bucket);
        }
        String mode = new String(bucketDocument, StandardCharsets.UTF_8);
        return mode.equals(OFF_DOCUMENT) ? Optional.empty() : Optional.of(mode);
    }

    /**
     * The bucket-level document for {@code setting}: {@code off}, {@code on} or {@code h-mode} (H-mode, {@code high}),
     * {@code b-mode N} ({@code basic:N}), {@code f-mode} ({@code flexible}), or any mode text the config key takes.
     * The document is the mode text ({@code off} for off), checked here so that a stored one always parses.
     */
    public static byte[] bucketDocument(String setting) {
        String t = setting.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        String mode;
        if (t.equals(OFF_DOCUMENT)) {
            mode = OFF_DOCUMENT;
        } else if (t.equals("on") || t.equals("h-mode")) {
            mode = "high";
        } else if (t.equals("f-mode")) {
            mode = "flexible";
        } else if (t.startsWith("b-mode ")) {
            mode = "basic:" + t.substring("b-mode ".length()).trim();
        } else {
            mode = t;
        }
        if (!mode.equals(OFF_DOCUMENT)) {
            LayerSpacePolicy.parse(mode); // IllegalArgumentException names what is accepted
        }
        return mode.getBytes(StandardCharsets.UTF_8);
    }

    /** This policy with chunks grouped under keys by {@code assignment} (benchmarks: {@link KeyAssignment}). */
    public LayerModePolicy withKeyAssignment(KeyAssignment assignment) {
        return new LayerModePolicy(modes, subChunkAverage, threshold, assignment, zlibRecipes);
    }

    /** This policy with zlib recipes on or off ({@code layer-recipes}). */
    public LayerModePolicy withZlibRecipes(boolean on) {
        return new LayerModePolicy(modes, subChunkAverage, threshold, keyAssignment, on);
    }

    public boolean isOff() {
        return modes.isEmpty();
    }
}

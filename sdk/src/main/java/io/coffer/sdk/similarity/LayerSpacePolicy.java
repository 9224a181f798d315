package io.coffer.sdk.similarity;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which space a gzip layer is deduplicated in (SimEnc §4.1.1): {@code COMPRESSED} (layer-level, the object as it
 * is) or {@code PARTIALLY_DECODED} (Huffman-decoded, chunk-level with similarity-preserving keys).
 * <ul>
 *   <li>B-mode n ({@code basic:n}): the first n layers of an image at layer level, the rest partially decoded. An
 *       image is an object-key prefix: the key up to its last {@code /} (the whole bucket for keys without one), and a
 *       layer's place is its upload order under that prefix.</li>
 *   <li>H-mode ({@code high}): every layer partially decoded.</li>
 *   <li>F-mode ({@code flexible[:bits:hashes]}): partially decoded when the {@link HuffmanBloomFilter} may contain the
 *       layer's Huffman-tree vector (a similar layer was seen), else layer level; every decoded vector is then added.
 *       A layer without a vector (not deflate, or not reproducible) stays at layer level.</li>
 * </ul>
 * One policy object per bucket; thread-safe. B-mode keeps one counter per prefix it has seen.
 */
public final class LayerSpacePolicy {
    /** The spaces a layer can be deduplicated in. */
    public enum Space { COMPRESSED, PARTIALLY_DECODED }

    /** The paper's three modes. */
    public enum Mode { BASIC, HIGH, FLEXIBLE }

    private static final int DEFAULT_FILTER_BITS = 1 << 16;
    private static final int DEFAULT_FILTER_HASHES = 3;

    private final Mode mode;
    private final int basicLayers;
    private final HuffmanBloomFilter filter;
    private final Map<String, Integer> layersPerImage = new HashMap<>();

    private LayerSpacePolicy(Mode mode, int basicLayers, HuffmanBloomFilter filter) {
        this.mode = mode;
        this.basicLayers = basicLayers;
        this.filter = filter;
    }

    /** B-mode n: the first {@code n} layers of each image at layer level. */
    public static LayerSpacePolicy basic(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("B-mode needs n >= 0, not " + n);
        }
        return new LayerSpacePolicy(Mode.BASIC, n, null);
    }

    /** H-mode: everything partially decoded. */
    public static LayerSpacePolicy high() {
        return new LayerSpacePolicy(Mode.HIGH, 0, null);
    }

    /** F-mode over the given filter. */
    public static LayerSpacePolicy flexible(HuffmanBloomFilter filter) {
        return new LayerSpacePolicy(Mode.FLEXIBLE, 0, filter);
    }

    /** {@code basic:N}, {@code high}, {@code flexible} or {@code flexible:BITS:HASHES} (default 65536 bits, 3 hashes). */
    public static LayerSpacePolicy parse(String text) {
        String[] p = text.trim().toLowerCase(Locale.ROOT).split(":");
        try {
            switch (p[0]) {
                case "basic":
                    if (p.length == 2) {
                        return basic(Integer.parseInt(p[1]));
                    }
                    break;
                case "high":
                    if (p.length == 1) {
                        return high();
                    }
                    break;
                case "flexible":
                    if (p.length == 1) {
                        return flexible(new HuffmanBloomFilter(DEFAULT_FILTER_BITS, DEFAULT_FILTER_HASHES));
                    }
                    if (p.length == 3) {
                        return flexible(new HuffmanBloomFilter(Integer.parseInt(p[1]), Integer.parseInt(p[2])));
                    }
                    break;
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad layer mode '" + text + "': " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("layer mode must be basic:N, high, flexible or flexible:BITS:HASHES, not '"
                + text + "'");
    }

    /**
     * The space for the next layer uploaded under {@code objectKey}, whose literal/length code-length vector is
     * {@code huffmanVector} ({@code null} when it has none). Records the layer (B-mode counts it, F-mode adds its
     * vector).
     */
    public synchronized Space decide(String objectKey, int[] huffmanVector) {
        switch (mode) {
            case HIGH:
                return Space.PARTIALLY_DECODED;
            case BASIC: {
                int slash = objectKey.lastIndexOf('/');
                String image = slash < 0 ? "" : objectKey.substring(0, slash);
                int seen = layersPerImage.merge(image, 1, Integer::sum);
                return seen <= basicLayers ? Space.COMPRESSED : Space.PARTIALLY_DECODED;
            }
            case FLEXIBLE: {
                if (huffmanVector == null) {
                    return Space.COMPRESSED;
                }
                boolean similar = filter.mightContain(huffmanVector);
                filter.add(huffmanVector);
                return similar ? Space.PARTIALLY_DECODED : Space.COMPRESSED;
            }
            default:
                throw new IllegalStateException(mode.toString());
        }
    }

    public Mode mode() {
        return mode;
    }
}

package io.coffer.sdk.chunk;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validated chunker configuration and its text form, e.g. {@code fastcdc:256k:1m:4m},
 * {@code fastcdc:2k:8k:64k:level=2} or {@code fixed:1m}.
 *
 * <p>Grammar: {@code fastcdc:MIN:AVG:MAX[:level=N][:seed=S]} or {@code fixed:SIZE}. Sizes are decimal byte counts
 * with an optional binary suffix {@code k} (KiB), {@code m} (MiB) or {@code g} (GiB), case-insensitive. {@code level}
 * is the FastCDC normalization level 0..3 (default 1); {@code seed} (decimal, or hex with {@code 0x}; default 0) XORs
 * the GEAR table. Rules: every size is in {@code [64 B, 64 MiB]}; for FastCDC {@code min < avg < max}, and with
 * {@code bits = round(log2(avg))} the masks {@code MASKS[bits - level]} and {@code MASKS[bits + level]} must exist,
 * i.e. {@code 5 <= bits - level} and {@code bits + level <= 25} (so avg up to 16 MiB at level 1).
 *
 * <p>{@link #toString()} gives the canonical form (largest exact unit, default options omitted), which
 * {@link #parse} reads back to an equal spec. Instances are immutable.
 */
public final class ChunkerSpec {

    /** Chunking algorithm named by the first field of a spec. */
    public enum Algorithm {
        /** FastCDC 2020 content-defined chunking ({@link FastCdcChunker}). */
        FASTCDC("fastcdc"),
        /** Fixed-size chunks ({@link FixedChunker}). */
        FIXED("fixed");

        private final String id;

        Algorithm(String id) {
            this.id = id;
        }

        /** The name used in spec strings. */
        public String id() {
            return id;
        }
    }

    /** Smallest size (bytes) allowed for any size in a spec. */
    public static final int MIN_SIZE_LIMIT = 64;

    /** Largest size (bytes) allowed for any size in a spec: 64 MiB. */
    public static final int MAX_SIZE_LIMIT = 64 << 20;

    /** Default for general objects: FastCDC, min 256 KiB, average 1 MiB, max 4 MiB, level 1. */
    public static final ChunkerSpec DEFAULT = fastCdc(256 << 10, 1 << 20, 4 << 20);

    private static final int MIN_MASK_BITS = 5;
    private static final int MAX_MASK_BITS = 25;
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})([kmg]?)(i?b)?");

    private final Algorithm algorithm;
    private final int minSize;
    private final int avgSize;
    private final int maxSize;
    private final int level;
    private final long seed;

    private ChunkerSpec(Algorithm algorithm, int minSize, int avgSize, int maxSize, int level, long seed) {
        this.algorithm = algorithm;
        this.minSize = minSize;
        this.avgSize = avgSize;
        this.maxSize = maxSize;
        this.level = level;
        this.seed = seed;
    }

    /** FastCDC with normalization level 1 and no seed. */
    public static ChunkerSpec fastCdc(int minSize, int avgSize, int maxSize) {
        return fastCdc(minSize, avgSize, maxSize, FastCdcChunker.DEFAULT_LEVEL, 0L);
    }

    /** FastCDC with the given normalization level and no seed. */
    public static ChunkerSpec fastCdc(int minSize, int avgSize, int maxSize, int level) {
        return fastCdc(minSize, avgSize, maxSize, level, 0L);
    }

    /**
     * FastCDC with the given normalization level and GEAR seed.
     *
     * @throws IllegalArgumentException when the sizes or level break the rules in the class comment
     */
    public static ChunkerSpec fastCdc(int minSize, int avgSize, int maxSize, int level, long seed) {
        checkFastCdc(minSize, avgSize, maxSize, level);
        return new ChunkerSpec(Algorithm.FASTCDC, minSize, avgSize, maxSize, level, seed);
    }

    /**
     * Fixed-size chunks of {@code size} bytes.
     *
     * @throws IllegalArgumentException when {@code size} is outside {@code [64 B, 64 MiB]}
     */
    public static ChunkerSpec fixed(int size) {
        checkBounds("size", size);
        return new ChunkerSpec(Algorithm.FIXED, size, size, size, 0, 0L);
    }

    /**
     * Parses a spec such as {@code fastcdc:256k:1m:4m}, {@code fastcdc:256k:1m:4m:level=2} or {@code fixed:1m}.
     *
     * @throws IllegalArgumentException with a message naming the offending part when the text is not a valid spec
     */
    public static ChunkerSpec parse(String text) {
        Objects.requireNonNull(text, "spec");
        String[] parts = text.trim().split(":", -1);
        String name = parts[0].toLowerCase(Locale.ROOT);
        try {
            switch (name) {
                case "fastcdc":
                    return parseFastCdc(parts);
                case "fixed":
                    if (parts.length != 2) {
                        throw new IllegalArgumentException("expected fixed:SIZE");
                    }
                    return fixed(parseSize("size", parts[1]));
                default:
                    throw new IllegalArgumentException(
                            "unknown algorithm '" + parts[0] + "' (expected 'fastcdc' or 'fixed')");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid chunker spec '" + text + "': " + e.getMessage(), e);
        }
    }

    private static ChunkerSpec parseFastCdc(String[] parts) {
        if (parts.length < 4) {
            throw new IllegalArgumentException("expected fastcdc:MIN:AVG:MAX[:level=N][:seed=S]");
        }
        int min = parseSize("min", parts[1]);
        int avg = parseSize("avg", parts[2]);
        int max = parseSize("max", parts[3]);
        Integer level = null;
        Long seed = null;
        for (int i = 4; i < parts.length; i++) {
            String option = parts[i];
            int eq = option.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("option '" + option + "' is not key=value");
            }
            String key = option.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = option.substring(eq + 1).trim();
            switch (key) {
                case "level":
                    if (level != null) {
                        throw new IllegalArgumentException("level given twice");
                    }
                    level = parseLevel(value);
                    break;
                case "seed":
                    if (seed != null) {
                        throw new IllegalArgumentException("seed given twice");
                    }
                    seed = parseSeed(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + key + "' (expected level or seed)");
            }
        }
        return fastCdc(min, avg, max, level == null ? FastCdcChunker.DEFAULT_LEVEL : level,
                seed == null ? 0L : seed);
    }

    private static int parseLevel(String value) {
        if (!value.matches("[0-9]{1,3}")) {
            throw new IllegalArgumentException("level '" + value + "' is not a number 0.." + FastCdcChunker.MAX_LEVEL);
        }
        return Integer.parseInt(value);
    }

    private static long parseSeed(String value) {
        try {
            String v = value.toLowerCase(Locale.ROOT);
            if (v.startsWith("0x")) {
                return Long.parseUnsignedLong(v.substring(2), 16);
            }
            return Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("seed '" + value + "' is not an unsigned 64-bit number", e);
        }
    }

    /** Parses {@code 4096}, {@code 4k}, {@code 4KiB}, {@code 1m}...; the result is then bounds-checked. */
    static int parseSize(String what, String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    what + " '" + text + "' is not a size (a number with optional k, m or g suffix)");
        }
        long value = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "k":
                value <<= 10;
                break;
            case "m":
                value <<= 20;
                break;
            case "g":
                value <<= 30;
                break;
            default:
                if (m.group(3) != null && m.group(3).startsWith("i")) {
                    throw new IllegalArgumentException(what + " '" + text + "' has 'ib' without a unit");
                }
                break;
        }
        if (value > MAX_SIZE_LIMIT) {
            throw new IllegalArgumentException(what + " " + text + " exceeds the limit of 64 MiB");
        }
        return (int) value;
    }

    /** Formats a byte count with the largest binary unit that divides it exactly: {@code 262144 -> 256k}. */
    static String formatSize(int size) {
        if (size != 0 && (size & ((1 << 20) - 1)) == 0) {
            return (size >> 20) + "m";
        }
        if (size != 0 && (size & ((1 << 10) - 1)) == 0) {
            return (size >> 10) + "k";
        }
        return Integer.toString(size);
    }

    private static void checkBounds(String what, int size) {
        if (size < MIN_SIZE_LIMIT || size > MAX_SIZE_LIMIT) {
            throw new IllegalArgumentException(what + " " + size + " B is outside [" + MIN_SIZE_LIMIT
                    + " B, 64 MiB]");
        }
    }

    /** Validates FastCDC parameters; shared by {@link FastCdcChunker}'s constructor. */
    static void checkFastCdc(int minSize, int avgSize, int maxSize, int level) {
        checkBounds("min", minSize);
        checkBounds("avg", avgSize);
        checkBounds("max", maxSize);
        if (!(minSize < avgSize && avgSize < maxSize)) {
            throw new IllegalArgumentException("sizes must satisfy min < avg < max, got min " + minSize + ", avg "
                    + avgSize + ", max " + maxSize);
        }
        if (level < 0 || level > FastCdcChunker.MAX_LEVEL) {
            throw new IllegalArgumentException("level " + level + " is outside 0.." + FastCdcChunker.MAX_LEVEL);
        }
        int bits = FastCdcChunker.bits(avgSize);
        if (bits - level < MIN_MASK_BITS || bits + level > MAX_MASK_BITS) {
            throw new IllegalArgumentException("avg " + avgSize + " (" + bits + " bits) with level " + level
                    + " needs masks for " + (bits - level) + ".." + (bits + level) + " bits; only "
                    + MIN_MASK_BITS + ".." + MAX_MASK_BITS + " exist (use a smaller level or avg)");
        }
    }

    /** Which algorithm this spec selects. */
    public Algorithm algorithm() {
        return algorithm;
    }

    /** Smallest chunk (except the last); for {@code fixed}, the chunk size. */
    public int minSize() {
        return minSize;
    }

    /** Target average chunk size; for {@code fixed}, the chunk size. */
    public int avgSize() {
        return avgSize;
    }

    /** Largest chunk; for {@code fixed}, the chunk size. */
    public int maxSize() {
        return maxSize;
    }

    /** FastCDC normalization level (0..3); 0 for {@code fixed}. */
    public int level() {
        return level;
    }

    /** FastCDC GEAR seed (0 = published table); 0 for {@code fixed}. */
    public long seed() {
        return seed;
    }

    /** A new chunker for this spec. */
    public Chunker newChunker() {
        switch (algorithm) {
            case FASTCDC:
                return new FastCdcChunker(minSize, avgSize, maxSize, level, seed);
            case FIXED:
                return new FixedChunker(maxSize);
            default:
                throw new IllegalStateException("unhandled algorithm " + algorithm);
        }
    }

    /** The canonical spec string, e.g. {@code fastcdc:256k:1m:4m} or {@code fixed:1m}. */
    @Override
    public String toString() {
        if (algorithm == Algorithm.FIXED) {
            return "fixed:" + formatSize(maxSize);
        }
        StringBuilder sb = new StringBuilder("fastcdc:")
                .append(formatSize(minSize)).append(':')
                .append(formatSize(avgSize)).append(':')
                .append(formatSize(maxSize));
        if (level != FastCdcChunker.DEFAULT_LEVEL) {
            sb.append(":level=").append(level);
        }
        if (seed != 0L) {
            sb.append(":seed=0x").append(Long.toHexString(seed));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ChunkerSpec)) {
            return false;
        }
        ChunkerSpec other = (ChunkerSpec) o;
        return algorithm == other.algorithm && minSize == other.minSize && avgSize == other.avgSize
                && maxSize == other.maxSize && level == other.level && seed == other.seed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, minSize, avgSize, maxSize, level, seed);
    }
}

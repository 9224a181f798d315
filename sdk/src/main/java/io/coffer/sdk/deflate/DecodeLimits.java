package io.coffer.sdk.deflate;

/**
 * Bounds on what one decoding may produce, so that hostile input costs bounded memory and output.
 *
 * @param maxStringBytes    the longest gzip FNAME or FCOMMENT accepted (each), at most 256 KiB so that a header
 *                          always fits a side-information record
 * @param maxExpansion      tokens plus side information may be at most this many times the compressed bytes read
 *                          (plus 64 KiB); valid deflate cannot exceed about 16 (a 2-bit match gives 4 token bytes),
 *                          so the default 20 only guards, and a caller may set less
 * @param maxUncompressed   the largest decompressed size (the sum of literal and match lengths) accepted: the
 *                          decompression-bomb bound for callers that decompress the result later
 */
public record DecodeLimits(int maxStringBytes, double maxExpansion, long maxUncompressed) {
    public static final DecodeLimits DEFAULT = new DecodeLimits(64 * 1024, 20.0, Long.MAX_VALUE);
    static final long EXPANSION_ALLOWANCE = 64 * 1024;
    /** Two strings of this size, FEXTRA and the fixed fields stay under {@link SideInfoReader#MAX_HEADER_BYTES}. */
    static final int MAX_STRING_BYTES = 256 * 1024;

    public DecodeLimits {
        if (maxStringBytes < 0 || !(maxExpansion > 0) || maxUncompressed < 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
        if (maxStringBytes > MAX_STRING_BYTES) {
            throw new IllegalArgumentException("maxStringBytes above " + MAX_STRING_BYTES);
        }
    }

    public DecodeLimits withMaxExpansion(double ratio) {
        return new DecodeLimits(maxStringBytes, ratio, maxUncompressed);
    }

    public DecodeLimits withMaxUncompressed(long bytes) {
        return new DecodeLimits(maxStringBytes, maxExpansion, bytes);
    }
}

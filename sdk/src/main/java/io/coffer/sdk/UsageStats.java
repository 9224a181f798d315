package io.coffer.sdk;

/**
 * What a set of objects (a bucket, a tenant's buckets or the whole store) holds and what storing it costs.
 *
 * <ul>
 *   <li>{@code logicalBytes}: the sum of the objects' sizes, what clients see;</li>
 *   <li>{@code inlineObjects}, {@code inlineBytes}: objects kept inside their sealed manifest (small objects, and
 *       empty ones) and their sizes; they reference no chunk;</li>
 *   <li>{@code manifestBytes}: the sum of the objects' sealed manifest lengths (inline objects' bytes included);</li>
 *   <li>{@code chunks}, {@code referencedBytes}, {@code storedBytes}: the distinct chunks the objects reference (each
 *       counted once however many objects share it), the sum of their plaintext lengths and of their stored
 *       (compressed, encrypted) lengths;</li>
 *   <li>{@code chunksOfUnknownPlainLength}: those of the chunks indexed before the metadata store recorded plaintext
 *       lengths (or by reindex); their stored length stands for their plaintext length.</li>
 * </ul>
 */
public record UsageStats(long objects, long logicalBytes, long inlineObjects, long inlineBytes, long manifestBytes,
                         long chunks, long referencedBytes, long storedBytes, long chunksOfUnknownPlainLength) {
    public static final UsageStats EMPTY = new UsageStats(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Logical bytes of the chunked objects (inline ones excluded: they are not chunked, so not deduplicated) over
     * referenced bytes; NaN when no chunk is referenced.
     */
    public double dedupRatio() {
        return ratio(logicalBytes - inlineBytes, referencedBytes);
    }

    /** Referenced (plaintext) bytes over stored bytes; NaN when no chunk is referenced. */
    public double compressionRatio() {
        return ratio(referencedBytes, storedBytes);
    }

    /** Logical bytes of the chunked objects over stored bytes: dedup and compression together; NaN without chunks. */
    public double totalRatio() {
        return ratio(logicalBytes - inlineBytes, storedBytes);
    }

    private static double ratio(long numerator, long denominator) {
        return denominator == 0 ? Double.NaN : (double) numerator / denominator;
    }
}

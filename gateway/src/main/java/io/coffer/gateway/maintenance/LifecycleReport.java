package io.coffer.gateway.maintenance;

/**
 * What one lifecycle sweep did (or, dry, would do).
 *
 * @param buckets              buckets with enabled lifecycle rules that were swept
 * @param currentExpired       current versions expired (removed, or hidden behind a new delete marker)
 * @param noncurrentRemoved    noncurrent versions (and noncurrent delete markers) removed for good
 * @param deleteMarkersRemoved expired delete markers (a key's only version) removed
 * @param uploadsAborted       incomplete multipart uploads aborted
 * @param skipped              actions not taken because the engine refused them (an object under Object Lock, a
 *                             failing backend) or the object changed since it was listed
 */
public record LifecycleReport(long buckets, long currentExpired, long noncurrentRemoved, long deleteMarkersRemoved,
                              long uploadsAborted, long skipped) {
    /** The report as one JSON object of numbers. */
    public String json() {
        return "{\"buckets\":" + buckets + ",\"currentExpired\":" + currentExpired + ",\"noncurrentRemoved\":"
                + noncurrentRemoved + ",\"deleteMarkersRemoved\":" + deleteMarkersRemoved + ",\"uploadsAborted\":"
                + uploadsAborted + ",\"skipped\":" + skipped + "}";
    }
}

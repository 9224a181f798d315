package io.coffer.sdk.meta;

/**
 * Live and dead bytes of one pack. A chunk is live while it is referenced or was released less than the grace
 * period ago; everything else in the pack (released chunks, duplicate copies, headers) is dead.
 */
public record PackUsage(PackRecord pack, long liveBytes, int liveChunks, int deadChunks) {
    public long deadBytes() {
        return pack.size() - liveBytes;
    }
}

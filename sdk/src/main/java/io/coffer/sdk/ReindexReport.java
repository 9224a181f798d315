package io.coffer.sdk;

/** What reindex rebuilt from the backend. */
public record ReindexReport(int buckets, long objects, int packs, long chunks, int skippedBlobs) {
}

package io.coffer.sdk;

/** Totals for metrics and dedup reports: logical object bytes against the bytes packs take on the backend. */
public record StoreStats(long objects, long logicalBytes, long chunks, long chunkBytes, long packs, long packBytes) {
}

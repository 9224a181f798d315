package io.coffer.sdk;

/** What one garbage-collection pass did. */
public record GcReport(int packsRewritten, int packsRetired, int blobsDeleted, long bytesCopied, long bytesFreed) {
}

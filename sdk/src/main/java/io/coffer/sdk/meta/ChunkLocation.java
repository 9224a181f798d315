package io.coffer.sdk.meta;

import io.coffer.sdk.crypto.ChunkId;

/** Where the ciphertext of one chunk lies: {@code length} bytes at {@code offset} of pack blob {@code pack}. */
public record ChunkLocation(ChunkId id, String pack, long offset, int length) {
}

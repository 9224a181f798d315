package io.coffer.benchmarks.layers;

import io.coffer.sdk.crypto.ChunkKey;

/** Layer-level dedup in the compressed space: each file one blob under its SHA-256 key, stored once if identical. */
final class LayerLevelPipeline extends Pipeline {

    LayerLevelPipeline(Tally tally, byte[] sealKey, boolean byCiphertext) {
        super(tally, sealKey, byCiphertext);
    }

    @Override
    void file(byte[] data, ChunkKey[] keys, int firstChunk, byte[] sideInfo) {
        layerLevel(data);
    }
}

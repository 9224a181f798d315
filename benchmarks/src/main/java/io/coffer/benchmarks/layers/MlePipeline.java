package io.coffer.benchmarks.layers;

import io.coffer.sdk.crypto.ChunkKey;

/**
 * MLE as AWS Lambda deploys it (the paper's baseline): fixed 512 KiB chunks, each under the key its SHA-256 gives,
 * deduplicated only when identical. The manifest holds, per chunk, its id, its key and its length (Coffer's manifest
 * entry without the plaintext hash, which the SIV tag makes unnecessary). A chunk's pack is the chunk itself, so
 * per-pack compression equals per-blob compression here.
 */
final class MlePipeline extends Pipeline {

    MlePipeline(Tally tally, byte[] sealKey, boolean byCiphertext) {
        super(tally, sealKey, byCiphertext);
    }

    @Override
    void file(byte[] data, ChunkKey[] keys, int firstChunk, byte[] sideInfo) {
        long start = System.nanoTime();
        int chunks = 0;
        long manifest = 0;
        for (int off = 0; off < data.length; off += CHUNK, chunks++) {
            int len = Math.min(CHUNK, data.length - off);
            ChunkKey key = keys[firstChunk + chunks];
            long before = tally.perBlob;
            if (storeBlob(key, data, off, len)) {
                tally.perPack += tally.perBlob - before;
            }
            tally.references++;
            manifest += Tally.ID + ChunkKey.LENGTH + Tally.uvarint(len);
        }
        tally.chunks += chunks;
        tally.files++;
        tally.inputBytes += data.length;
        tally.manifestBytes += Tally.SEAL + Tally.uvarint(chunks) + manifest + sideInfoBytes(sideInfo);
        tally.nanos += System.nanoTime() - start;
    }
}

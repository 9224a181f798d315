package io.coffer.benchmarks.layers;

import io.coffer.sdk.chunk.FastCdcChunker;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.SubChunkCipher;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The chunk-level path with one key per 512 KiB chunk shared by its sub-chunks (LSH-MLE and SimEnc differ only in
 * where that key comes from): each chunk is cut into FastCDC sub-chunks, each sub-chunk sealed under the chunk's key
 * and deduplicated by ciphertext. What is counted:
 * <ul>
 *   <li>data: each new sub-chunk's ciphertext (raw), or its compressed-then-sealed form (per blob), or, per 512 KiB
 *       chunk, the new sub-chunks compressed together and sealed as one pack segment (per pack);</li>
 *   <li>pack index: per new sub-chunk, id (32), offset (4), uvarint length;</li>
 *   <li>chunk recipe, stored once per distinct recipe (a chunk met again costs no second recipe): seal overhead, the
 *       chunk key (32), uvarint count, per sub-chunk id (32) and uvarint length;</li>
 *   <li>file manifest: seal overhead, uvarint chunk count, per chunk the recipe id (32), the side information
 *       compressed (partially decoded space).</li>
 * </ul>
 */
final class SubChunkPipeline extends Pipeline {
    private final FastCdcChunker chunker;
    private final DigestSet recipes = new DigestSet();
    private final MessageDigest recipeDigest;
    private final ByteArrayOutputStream pack = new ByteArrayOutputStream(CHUNK);

    SubChunkPipeline(Tally tally, byte[] sealKey, boolean byCiphertext, FastCdcChunker chunker) {
        super(tally, sealKey, byCiphertext);
        this.chunker = chunker;
        try {
            this.recipeDigest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    void file(byte[] data, ChunkKey[] keys, int firstChunk, byte[] sideInfo) {
        long start = System.nanoTime();
        int chunks = 0;
        for (int off = 0; off < data.length; off += CHUNK, chunks++) {
            chunk(keys[firstChunk + chunks], data, off, Math.min(CHUNK, data.length - off));
        }
        tally.chunks += chunks;
        tally.files++;
        tally.inputBytes += data.length;
        tally.manifestBytes += Tally.SEAL + Tally.uvarint(chunks) + (long) chunks * Tally.ID
                + sideInfoBytes(sideInfo);
        tally.nanos += System.nanoTime() - start;
    }

    private void chunk(ChunkKey key, byte[] data, int offset, int length) {
        pack.reset();
        recipeDigest.update(key.rawBytesForCipher());
        long recipe = Tally.SEAL + ChunkKey.LENGTH;
        int count = 0;
        for (int p = offset, end = offset + length; p < end; ) {
            int n = chunker.nextCut(data, p, end - p);
            boolean added = storeBlob(key, data, p, n);
            recipeDigest.update(lastId);
            if (added) {
                pack.write(data, p, n);
            }
            recipe += Tally.ID + Tally.uvarint(n);
            tally.references++;
            count++;
            p += n;
        }
        if (pack.size() > 0) {
            byte[] plain = pack.toByteArray();
            byte[] c = codec.compress(plain, 0, plain.length);
            byte[] body = c == null ? plain : c;
            tally.perPack += SubChunkCipher.sealedLength(body.length);
        }
        if (recipes.add(recipeDigest.digest())) {
            tally.recipeBytes += recipe + Tally.uvarint(count);
        }
    }
}

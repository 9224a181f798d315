package io.coffer.benchmarks.layers;

import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.SubChunkCipher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One way of storing the files of a data set, counted in a {@link Tally}. Blobs are sealed with
 * {@link SubChunkCipher}, which is deterministic and injective per key: two blobs have equal ciphertexts exactly when
 * they have equal keys and equal plaintexts. Deduplication therefore looks up either the SHA-256 of each ciphertext
 * ({@code byCiphertext}: every blob sealed, what a server that sees only ciphertexts does) or the SHA-256 of key and
 * plaintext (every new blob still sealed and its real ciphertext counted, duplicates not sealed again: the same
 * counts at a fraction of the cost; LayerExperimentTest checks that both give identical tallies). Subclasses decide
 * the chunks and their keys.
 */
abstract class Pipeline {
    /** The fixed chunk size of every chunk-level method (the AWS Lambda setting the paper keeps). */
    static final int CHUNK = 512 << 10;

    protected final Tally tally;
    protected final SubChunkCipher cipher;
    protected final Codec codec = new Codec();
    protected final DigestSet stored = new DigestSet();
    private final MessageDigest sha256;

    private final boolean byCiphertext;

    Pipeline(Tally tally, byte[] sealKey, boolean byCiphertext) {
        this.tally = tally;
        this.byCiphertext = byCiphertext;
        this.cipher = new SubChunkCipher(sealKey);
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Tally tally() {
        return tally;
    }

    /**
     * Stores one file given in this pipeline's space.
     *
     * @param data       the file's bytes in this space
     * @param keys       the key of every 512 KiB chunk of the data set in this space (global numbering)
     * @param firstChunk the global number of this file's first chunk
     * @param sideInfo   side information kept in the file's manifest (partially decoded space), else null
     */
    abstract void file(byte[] data, ChunkKey[] keys, int firstChunk, byte[] sideInfo);

    /** Stores a file as one blob in the compressed space (its key: its SHA-256, as MLE does). */
    final void layerLevel(byte[] gz) {
        long start = System.nanoTime();
        ChunkKey key = ChunkKey.of(sha256(gz, 0, gz.length));
        byte[] sealed = store(key, gz, 0, gz.length);
        if (sealed != null) {
            tally.raw += sealed.length;
            tally.perBlob += sealed.length;
            tally.perPack += sealed.length;
            tally.indexEntry(gz.length);
        }
        tally.files++;
        tally.inputBytes += gz.length;
        tally.references++;
        tally.manifestBytes += Tally.SEAL + Tally.ID + ChunkKey.LENGTH + Tally.uvarint(gz.length);
        tally.nanos += System.nanoTime() - start;
    }

    /** A file the partial decoder could not reproduce: counted at layer level, as the engine would store it. */
    final void fallback(byte[] gz) {
        tally.filesAtLayerLevel++;
        layerLevel(gz);
    }

    protected final byte[] sha256(byte[] b, int offset, int length) {
        sha256.update(b, offset, length);
        return sha256.digest();
    }

    /** The manifest's side information: compressed, then sealed under the master key. */
    protected final long sideInfoBytes(byte[] sideInfo) {
        if (sideInfo == null) {
            return 0;
        }
        byte[] c = codec.compress(sideInfo, 0, sideInfo.length);
        return Tally.SEAL + Tally.uvarint(sideInfo.length) + (c == null ? sideInfo.length : c.length);
    }

    /**
     * The dedup lookup for one blob: its ciphertext when it is new, null when it is stored already. Also leaves the
     * blob's identity in {@link #lastId} (for recipes).
     */
    protected final byte[] store(ChunkKey key, byte[] data, int offset, int length) {
        byte[] sealed = null;
        if (byCiphertext) {
            sealed = cipher.seal(key, data, offset, length);
            sha256.update(sealed);
        } else {
            sha256.update(key.rawBytesForCipher());
            sha256.update(data, offset, length);
        }
        lastId = sha256.digest();
        if (!stored.add(lastId)) {
            return null;
        }
        return sealed != null ? sealed : cipher.seal(key, data, offset, length);
    }

    /** The identity of the blob {@link #store} looked up last. */
    protected byte[] lastId;

    /** Seals and counts one blob under {@code key}; true if it was new. */
    protected final boolean storeBlob(ChunkKey key, byte[] data, int offset, int length) {
        byte[] sealed = store(key, data, offset, length);
        if (sealed == null) {
            return false;
        }
        tally.raw += sealed.length;
        byte[] c = codec.compress(data, offset, length);
        // the seal's output is its input plus a fixed-size synthetic IV (SubChunkCipherTest), so the sealed size of the
        // compressed form is computed rather than sealed a second time
        tally.perBlob += c == null ? sealed.length : SubChunkCipher.sealedLength(c.length);
        tally.indexEntry(length);
        return true;
    }
}

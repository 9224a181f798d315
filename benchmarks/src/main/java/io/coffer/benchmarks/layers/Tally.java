package io.coffer.benchmarks.layers;

import io.coffer.sdk.crypto.MasterKey;

/**
 * What one pipeline stored, counted from the ciphertexts it produced. Three ways of storing the same unique blobs:
 * {@code raw} (each sealed as it is), {@code perBlob} (each compressed before sealing, kept raw where that does not
 * shrink it), {@code perPack} (the new blobs of one 512 KiB chunk compressed together and sealed as one). Metadata is
 * the same for all three: pack-index entries, chunk recipes and file manifests (see {@link #metadata()}).
 */
final class Tally {
    /** A pack-index entry: id (32) plus uvarint offset (taken as 4 bytes) plus uvarint length. */
    static final int ID = 32;
    static final int SEAL = MasterKey.OVERHEAD;

    final String method;
    final String space;
    final String setting;
    long inputBytes;
    long files;
    long chunks;
    long references;
    long uniqueBlobs;
    long raw;
    long perBlob;
    long perPack;
    long indexBytes;
    long recipeBytes;
    long manifestBytes;
    long keys;
    long nanos;
    long filesAtLayerLevel;

    Tally(String method, String space, String setting) {
        this.method = method;
        this.space = space;
        this.setting = setting;
    }

    static int uvarint(long v) {
        int n = 1;
        while (v >= 0x80) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** A unique blob of {@code plainLength} bytes entered the pack index. */
    void indexEntry(long plainLength) {
        uniqueBlobs++;
        indexBytes += ID + 4 + uvarint(plainLength);
    }

    long metadata() {
        return indexBytes + recipeBytes + manifestBytes;
    }

    long totalRaw() {
        return raw + metadata();
    }

    long totalPerBlob() {
        return perBlob + metadata();
    }

    long totalPerPack() {
        return perPack + metadata();
    }

    /** The smallest of the three totals. */
    long best() {
        return Math.min(totalRaw(), Math.min(totalPerBlob(), totalPerPack()));
    }
}

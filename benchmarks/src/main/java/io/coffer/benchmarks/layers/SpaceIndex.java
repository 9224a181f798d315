package io.coffer.benchmarks.layers;

import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.Sketcher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * The 512 KiB chunks of one space across the data set, in version order: each chunk's sketch and SHA-256, and which
 * file (and that file's place in its package) it came from. Built in the first pass; the keys are derived from it.
 */
final class SpaceIndex {
    final String space;
    final List<ChunkSketch> sketches = new ArrayList<>();
    final List<byte[]> hashes = new ArrayList<>();
    final List<Integer> versionInPackage = new ArrayList<>();
    final List<Integer> firstChunkOfFile = new ArrayList<>();
    long bytes;
    long sketchNanos;
    private final Sketcher sketcher;
    private final MessageDigest sha256;

    SpaceIndex(String space, Sketcher sketcher) {
        this.space = space;
        this.sketcher = sketcher;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds a file's chunks; {@code data} null means the file has no form in this space (it is stored as is). */
    void file(byte[] data, int versionInPackage) {
        firstChunkOfFile.add(sketches.size());
        if (data == null) {
            return;
        }
        long start = System.nanoTime();
        for (int off = 0; off < data.length; off += Pipeline.CHUNK) {
            int len = Math.min(Pipeline.CHUNK, data.length - off);
            sketches.add(sketcher.sketch(data, off, len));
            sha256.update(data, off, len);
            hashes.add(sha256.digest());
            this.versionInPackage.add(versionInPackage);
        }
        sketchNanos += System.nanoTime() - start;
        bytes += data.length;
    }

    int chunks() {
        return sketches.size();
    }
}

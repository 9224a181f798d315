package io.coffer.sdk.similarity;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The clusters known so far, each with a centroid code and a representative chunk, and the online step of SimEnc
 * §4.3.2: a new chunk joins the cluster whose centroid is nearest if that distance is at most the threshold, and
 * otherwise founds a new cluster of which it is the representative. A larger threshold means fewer keys (more
 * deduplication, less privacy). The centroid is the bitwise majority of the members' codes (ties give 0). Not
 * thread-safe.
 */
public final class ClusterIndex {
    private final int threshold;
    private final int codeBits;
    private final List<Cluster> clusters = new ArrayList<>();

    /** Where a chunk went. */
    public record Assignment(int cluster, boolean created, int distance) {
    }

    private static final class Cluster {
        final int[] ones;
        final long[] centroid;
        final byte[] representativeHash;
        int members;

        Cluster(int codeBits, byte[] representativeHash) {
            this.ones = new int[codeBits];
            this.centroid = new long[codeBits / 64];
            this.representativeHash = representativeHash.clone();
        }

        void add(long[] code) {
            members++;
            for (int b = 0; b < ones.length; b++) {
                long mask = 1L << (b & 63);
                if ((code[b >>> 6] & mask) != 0) {
                    ones[b]++;
                }
                if (2 * ones[b] > members) {
                    centroid[b >>> 6] |= mask;
                } else {
                    centroid[b >>> 6] &= ~mask;
                }
            }
        }
    }

    /** An empty index for codes of {@code codeBits} bits with the given join threshold (a Hamming distance). */
    public ClusterIndex(int codeBits, int threshold) {
        if (codeBits < 64 || codeBits % 64 != 0 || threshold < 0) {
            throw new IllegalArgumentException("code bits " + codeBits + ", threshold " + threshold);
        }
        this.codeBits = codeBits;
        this.threshold = threshold;
    }

    /**
     * The index after a warm-up clustering: one cluster per cluster of {@code result}, its representative the first
     * chunk (in input order) that belongs to it, its centroid the majority of all its members.
     *
     * @param chunkHashes SHA-256 of each warm-up chunk, in the order of {@code sketches}
     */
    public static ClusterIndex fromWarmUp(List<ChunkSketch> sketches, List<byte[]> chunkHashes,
                                          SimilarityClustering.Result result, int threshold) {
        if (sketches.size() != chunkHashes.size() || sketches.size() != result.clusterOf().length) {
            throw new IllegalArgumentException("sketches, hashes and clustering differ in length");
        }
        int bits = sketches.isEmpty() ? 256 : sketches.get(0).codeBits();
        ClusterIndex index = new ClusterIndex(bits, threshold);
        for (int i = 0; i < sketches.size(); i++) {
            int c = result.clusterOf(i);
            if (c == index.clusters.size()) {
                index.clusters.add(new Cluster(bits, chunkHashes.get(i)));
            } else if (c > index.clusters.size()) {
                throw new IllegalArgumentException("clusters are not numbered in order of first member");
            }
            index.clusters.get(c).add(sketches.get(i).codeView());
        }
        return index;
    }

    /** Puts a chunk into the nearest cluster within the threshold, or into a new cluster it represents. */
    public Assignment assign(ChunkSketch sketch, byte[] chunkHash) {
        return assign(sketch, () -> chunkHash);
    }

    /**
     * As {@link #assign(ChunkSketch, byte[])}, but asks for the chunk's SHA-256 only when the chunk founds a cluster
     * (then exactly once): a chunk that joins one needs no hash, which saves hashing most chunks.
     */
    public Assignment assign(ChunkSketch sketch, Supplier<byte[]> chunkHash) {
        long[] code = sketch.codeView();
        if (code.length * 64 != codeBits) {
            throw new IllegalArgumentException("a " + code.length * 64 + "-bit code for a " + codeBits + "-bit index");
        }
        int best = -1;
        int bestDistance = Integer.MAX_VALUE;
        for (int c = 0; c < clusters.size(); c++) {
            int d = ChunkSketch.hammingDistance(code, clusters.get(c).centroid);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        if (best >= 0 && bestDistance <= threshold) {
            clusters.get(best).add(code);
            return new Assignment(best, false, bestDistance);
        }
        byte[] hash = chunkHash.get();
        if (hash == null) {
            throw new IllegalArgumentException("no hash for a chunk that founds a cluster");
        }
        Cluster created = new Cluster(codeBits, hash);
        created.add(code);
        clusters.add(created);
        return new Assignment(clusters.size() - 1, true, 0);
    }

    /** SHA-256 of the chunk that represents {@code cluster}: what its key is derived from. */
    public byte[] representativeHash(int cluster) {
        return clusters.get(cluster).representativeHash.clone();
    }

    /** Chunks assigned to {@code cluster} so far (warm-up members included). */
    public int members(int cluster) {
        return clusters.get(cluster).members;
    }

    /** Number of clusters. */
    public int size() {
        return clusters.size();
    }

    /** The join threshold. */
    public int threshold() {
        return threshold;
    }
}

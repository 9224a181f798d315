package io.coffer.benchmarks.layers;

import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.ClusterIndex;
import io.coffer.sdk.similarity.ClusterKeyring;
import io.coffer.sdk.similarity.FirstFitIndex;
import io.coffer.sdk.similarity.SimilarityClustering;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** The key of every 512 KiB chunk of a space, per method. */
final class ChunkKeys {

    /**
     * SimEnc's keys and how they came about.
     *
     * @param keys           one per chunk
     * @param epsilon        Algorithm 1's adaptive epsilon on the warm-up chunks (also the online threshold)
     * @param warmUpChunks   chunks clustered by Algorithm 1
     * @param warmUpClusters clusters it found
     * @param clusters       clusters at the end (warm-up plus those founded online)
     * @param nanos          time spent: clustering, online assignment and key derivation
     */
    record SimEnc(ChunkKey[] keys, int epsilon, int warmUpChunks, int warmUpClusters, int clusters, long nanos) {
    }

    private ChunkKeys() {
    }

    /** MLE: each chunk's key is its SHA-256 (AWS Lambda). */
    static ChunkKey[] mle(SpaceIndex index) {
        ChunkKey[] keys = new ChunkKey[index.chunks()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ChunkKey.of(index.hashes.get(i));
        }
        return keys;
    }

    /** LSH-MLE: the key of the first earlier chunk sharing a Finesse super-feature, else the chunk's own. */
    static ChunkKey[] lsh(SpaceIndex index) {
        FirstFitIndex<Integer> firstFit = new FirstFitIndex<>();
        ChunkKey[] keys = new ChunkKey[index.chunks()];
        for (int i = 0; i < keys.length; i++) {
            int base = firstFit.matchOrAdd(index.sketches.get(i), i);
            keys[i] = base == i ? ChunkKey.of(index.hashes.get(i)) : keys[base];
        }
        return keys;
    }

    /**
     * SimEnc: Algorithm 1 on the chunks of the warm-up files at {@code percentile} (a file is warm-up when its place in its package is below
     * {@code warmUpVersions}; all files when that is negative), the rest assigned online in version order with the
     * warm-up's epsilon as threshold (or {@code threshold} when not negative); one key per cluster from the key source.
     */
    static SimEnc simEnc(SpaceIndex index, int warmUpVersions, int threshold, double percentile, KeySource source)
            throws KeySourceException {
        long start = System.nanoTime();
        List<Integer> warm = new ArrayList<>();
        List<Integer> online = new ArrayList<>();
        for (int i = 0; i < index.chunks(); i++) {
            (warmUpVersions < 0 || index.versionInPackage.get(i) < warmUpVersions ? warm : online).add(i);
        }
        List<ChunkSketch> warmSketches = new ArrayList<>();
        List<byte[]> warmHashes = new ArrayList<>();
        for (int i : warm) {
            warmSketches.add(index.sketches.get(i));
            warmHashes.add(index.hashes.get(i));
        }
        SimilarityClustering.Result r = SimilarityClustering.cluster(warmSketches, percentile, 2);
        int t = threshold >= 0 ? threshold : r.epsilon();
        ClusterIndex clusters = ClusterIndex.fromWarmUp(warmSketches, warmHashes, r, t);
        int[] clusterOf = new int[index.chunks()];
        for (int w = 0; w < warm.size(); w++) {
            clusterOf[warm.get(w)] = r.clusterOf(w);
        }
        for (int i : online) {
            clusterOf[i] = clusters.assign(index.sketches.get(i), index.hashes.get(i)).cluster();
        }
        ClusterKeyring ring = new ClusterKeyring(source);
        List<Integer> all = new ArrayList<>(clusterOf.length);
        for (int c : clusterOf) {
            all.add(c);
        }
        List<ChunkKey> got = ring.keysFor(clusters, all);
        return new SimEnc(got.toArray(new ChunkKey[0]), r.epsilon(), warm.size(), r.clusters(), clusters.size(),
                System.nanoTime() - start);
    }

    static int distinct(ChunkKey[] keys) {
        return new HashSet<>(List.of(keys)).size();
    }
}

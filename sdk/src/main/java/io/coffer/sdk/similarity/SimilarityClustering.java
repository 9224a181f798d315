package io.coffer.sdk.similarity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SimEnc's Algorithm 1 (similarity-preserving clustering, §4.3.2): chunks that share a super-feature form an LSH group;
 * each group of two or more gives the average Hamming distance of its members' codes; epsilon is a percentile (the
 * paper: the 90th) of those averages, so it adapts to how far apart the codes of LSH-similar chunks are in this data;
 * then DBSCAN with that epsilon clusters all codes. Points DBSCAN leaves as noise become clusters of their own: every
 * chunk gets exactly one cluster, and so one key.
 */
public final class SimilarityClustering {
    /** The paper's percentile of the LSH groups' average distances. */
    public static final double DEFAULT_PERCENTILE = 0.9;
    /** Pairs examined per LSH group at most, so that a group of many identical chunks costs O(cap^2), not O(n^2). */
    static final int GROUP_MEMBER_CAP = 256;

    private SimilarityClustering() {
    }

    /**
     * The outcome of one clustering.
     *
     * @param clusterOf cluster per input chunk, numbered 0.. in order of each cluster's first chunk
     * @param clusters  how many clusters (noise points included, one each)
     * @param epsilon   the Hamming distance DBSCAN used
     */
    public record Result(int[] clusterOf, int clusters, int epsilon) {
        public Result {
            clusterOf = clusterOf.clone();
        }

        @Override
        public int[] clusterOf() {
            return clusterOf.clone();
        }

        /** The cluster of chunk {@code i}. */
        public int clusterOf(int i) {
            return clusterOf[i];
        }
    }

    /** Algorithm 1 with the paper's settings: the 90th percentile, DBSCAN with MinPts 2. */
    public static Result cluster(List<ChunkSketch> sketches) {
        return cluster(sketches, DEFAULT_PERCENTILE, 2);
    }

    /** Algorithm 1: the adaptive epsilon at {@code percentile} (in (0, 1]), then DBSCAN with {@code minPts}. */
    public static Result cluster(List<ChunkSketch> sketches, double percentile, int minPts) {
        int eps = adaptiveEpsilon(sketches, percentile);
        List<long[]> codes = new ArrayList<>(sketches.size());
        for (ChunkSketch s : sketches) {
            codes.add(s.codeView());
        }
        int[] labels = HammingDbscan.cluster(codes, eps, minPts);
        Map<Integer, Integer> renumber = new HashMap<>();
        int[] clusterOf = new int[labels.length];
        int next = 0;
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] == HammingDbscan.NOISE) {
                clusterOf[i] = next++;
            } else {
                Integer c = renumber.get(labels[i]);
                if (c == null) {
                    c = next++;
                    renumber.put(labels[i], c);
                }
                clusterOf[i] = c;
            }
        }
        return new Result(clusterOf, next, eps);
    }

    /**
     * Lines 1-12 of Algorithm 1: the {@code percentile} (nearest rank) of the average pairwise Hamming distance within
     * each LSH group of two or more chunks, rounded down; 0 when no two chunks share a super-feature.
     */
    public static int adaptiveEpsilon(List<ChunkSketch> sketches, double percentile) {
        if (!(percentile > 0 && percentile <= 1)) {
            throw new IllegalArgumentException("percentile must be in (0, 1], not " + percentile);
        }
        Map<Long, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < sketches.size(); i++) {
            ChunkSketch s = sketches.get(i);
            for (int f = 0; f < s.superFeatureCount(); f++) {
                // the super-feature's index is part of the group key: SF 0 and SF 1 are different hash functions
                long key = s.superFeature(f) * 31 + f;
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
            }
        }
        List<Double> averages = new ArrayList<>();
        for (List<Integer> members : groups.values()) {
            if (members.size() < 2) {
                continue;
            }
            int m = Math.min(members.size(), GROUP_MEMBER_CAP);
            long total = 0;
            long pairs = 0;
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    total += sketches.get(members.get(a)).hammingDistance(sketches.get(members.get(b)));
                    pairs++;
                }
            }
            averages.add((double) total / pairs);
        }
        if (averages.isEmpty()) {
            return 0;
        }
        double[] sorted = averages.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percentile * sorted.length) - 1;
        return (int) Math.floor(sorted[Math.max(0, rank)]);
    }
}

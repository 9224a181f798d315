package io.coffer.sdk.similarity;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DBSCAN (Ester et al. 1996) over bit codes with the Hamming distance: a point with at least {@code minPts} points
 * (itself included) within distance {@code eps} is a core point; clusters are the core points reachable from one
 * another through such neighbourhoods, plus the non-core points in a core point's neighbourhood. The result does not
 * depend on the order of the input except for which cluster a border point between two clusters joins (the first
 * found, in input order). Neighbourhoods are found by a full scan: O(n^2) distance computations, meant for the warm-up
 * sets of a few thousand 512 KiB chunks.
 */
public final class HammingDbscan {
    /** Label of a point in no cluster. */
    public static final int NOISE = -1;
    private static final int UNVISITED = -2;

    private HammingDbscan() {
    }

    /** Cluster labels 0, 1, 2 ... (in order of each cluster's first point) or {@link #NOISE}, one per code. */
    public static int[] cluster(List<long[]> codes, int eps, int minPts) {
        if (eps < 0 || minPts < 1) {
            throw new IllegalArgumentException("eps " + eps + " and minPts " + minPts + ": need eps >= 0, minPts >= 1");
        }
        int n = codes.size();
        int[] label = new int[n];
        Arrays.fill(label, UNVISITED);
        int next = 0;
        for (int p = 0; p < n; p++) {
            if (label[p] != UNVISITED) {
                continue;
            }
            List<Integer> neighbours = neighbours(codes, p, eps);
            if (neighbours.size() < minPts) {
                label[p] = NOISE;
                continue;
            }
            int c = next++;
            label[p] = c;
            ArrayDeque<Integer> queue = new ArrayDeque<>(neighbours);
            while (!queue.isEmpty()) {
                int q = queue.poll();
                if (label[q] == NOISE) {
                    label[q] = c;
                }
                if (label[q] != UNVISITED) {
                    continue;
                }
                label[q] = c;
                List<Integer> qn = neighbours(codes, q, eps);
                if (qn.size() >= minPts) {
                    queue.addAll(qn);
                }
            }
        }
        return label;
    }

    private static List<Integer> neighbours(List<long[]> codes, int p, int eps) {
        long[] a = codes.get(p);
        List<Integer> out = new ArrayList<>();
        for (int q = 0; q < codes.size(); q++) {
            if (ChunkSketch.hammingDistance(a, codes.get(q)) <= eps) {
                out.add(q);
            }
        }
        return out;
    }
}

package io.coffer.sdk.engine;

import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.ClusterIndex;
import io.coffer.sdk.similarity.FinesseSketcher;
import io.coffer.sdk.similarity.FirstFitIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The groups of a layer-mode bucket's 512 KiB chunks that share one key ({@link KeyAssignment}): SimEnc's clusters, or
 * the LSH-MLE baseline's FirstFit groups. A group's key is the key source's key for its representative chunk's
 * SHA-256. Not thread-safe ({@link LayerState} holds its lock around it).
 */
sealed interface LayerKeyGroups {

    static LayerKeyGroups of(KeyAssignment assignment, int threshold) {
        return switch (assignment) {
            case CLUSTERS -> new Clusters(new ClusterIndex(FinesseSketcher.DEFAULT_CODE_BITS, threshold));
            case FIRST_FIT -> new FirstFit();
        };
    }

    /** The group the chunk with {@code sketch} and SHA-256 {@code hash} joins, or founds. */
    default int assign(ChunkSketch sketch, byte[] hash) {
        return assign(sketch, () -> hash);
    }

    /** As {@link #assign(ChunkSketch, byte[])}, asking for the chunk's SHA-256 only when it founds a group. */
    int assign(ChunkSketch sketch, Supplier<byte[]> hash);

    /** The SHA-256 of the chunk that names the group's key. */
    byte[] representativeHash(int group);

    /** Groups so far. */
    int size();

    /** SimEnc: online assignment to the cluster whose centroid code is within the threshold. */
    record Clusters(ClusterIndex index) implements LayerKeyGroups {
        @Override
        public int assign(ChunkSketch sketch, Supplier<byte[]> hash) {
            return index.assign(sketch, hash).cluster();
        }

        @Override
        public byte[] representativeHash(int group) {
            return index.representativeHash(group);
        }

        @Override
        public int size() {
            return index.size();
        }
    }

    /** LSH-MLE: the group of the first earlier chunk sharing a super-feature, else a new one named by this chunk. */
    final class FirstFit implements LayerKeyGroups {
        private final FirstFitIndex<Integer> index = new FirstFitIndex<>();
        private final List<byte[]> firstHashes = new ArrayList<>();

        @Override
        public int assign(ChunkSketch sketch, Supplier<byte[]> hash) {
            int next = firstHashes.size();
            return index.matchOrAdd(sketch, () -> {
                byte[] h = hash.get();
                if (h == null) {
                    throw new IllegalArgumentException("no hash for a chunk that founds a group");
                }
                firstHashes.add(h.clone());
                return next;
            });
        }

        @Override
        public byte[] representativeHash(int group) {
            return firstHashes.get(group).clone();
        }

        @Override
        public int size() {
            return firstHashes.size();
        }
    }
}

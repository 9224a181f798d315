package io.coffer.sdk.similarity;

import io.coffer.sdk.crypto.ChunkKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The layer writer's neighbour rule (docs/FORMAT.md, "Layer-mode objects"): a sub-chunk is stored under its own chunk's
 * cluster key unless it is not stored under that but is under the cluster key of the chunk before or after. A layer
 * shifted against its predecessor has chunks that straddle two of the predecessor's, of two clusters, and join one:
 * the sub-chunks of the other half are then found under the neighbour's key instead of being stored again. Only an
 * existing ciphertext is referenced, made under that key by a chunk of that cluster; nothing new is encrypted under a
 * key outside its cluster.
 */
public final class NeighbourKeys {
    private NeighbourKeys() {
    }

    /** The cluster keys of the chunks before and after chunk {@code i} that differ from its own, each once. */
    public static List<SubChunkKeys> of(List<ChunkKey> clusterKeys, int i) {
        List<SubChunkKeys> out = new ArrayList<>(2);
        for (int j : new int[] {i - 1, i + 1}) {
            if (j >= 0 && j < clusterKeys.size() && !clusterKeys.get(j).equals(clusterKeys.get(i))
                    && out.stream().noneMatch(k -> k.clusterKey().equals(clusterKeys.get(j)))) {
                out.add(new SubChunkKeys(clusterKeys.get(j)));
            }
        }
        return out;
    }

    /**
     * The keys the sub-chunk with SHA-256 {@code hash} is stored under: {@code own}, unless {@code stored} (whether a
     * sub-chunk key's ciphertext exists) says no for its key and yes for a neighbour's.
     */
    public static SubChunkKeys storedUnder(SubChunkKeys own, List<SubChunkKeys> neighbours, byte[] hash,
                                           Predicate<ChunkKey> stored) {
        if (neighbours.isEmpty() || stored.test(own.keyFor(hash))) {
            return own;
        }
        for (SubChunkKeys k : neighbours) {
            if (stored.test(k.keyFor(hash))) {
                return k;
            }
        }
        return own;
    }
}

package io.coffer.sdk.similarity;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
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
     * A sub-chunk's key under the rule, with the cluster keys it came from and its chunk id.
     *
     * @param keys the cluster's sub-chunk keys that {@code key} came from
     * @param key  the sub-chunk's chunk key
     * @param id   the chunk id of {@code key}
     */
    public record Choice(SubChunkKeys keys, ChunkKey key, ChunkId id) {
    }

    /**
     * The key the sub-chunk with SHA-256 {@code hash} is stored under: {@code own}'s, unless {@code stored} (whether
     * the ciphertext of a chunk id exists) says no for its id and yes for a neighbour's. Each key and id is derived
     * once and handed back, so the caller need not derive the chosen one again (two HMACs per sub-chunk).
     */
    public static Choice choose(SubChunkKeys own, List<SubChunkKeys> neighbours, byte[] hash,
                                Function<ChunkKey, ChunkId> idOf, Predicate<ChunkId> stored) {
        ChunkKey key = own.keyFor(hash);
        Choice mine = new Choice(own, key, idOf.apply(key));
        if (neighbours.isEmpty() || stored.test(mine.id())) {
            return mine;
        }
        for (SubChunkKeys k : neighbours) {
            ChunkKey other = k.keyFor(hash);
            ChunkId id = idOf.apply(other);
            if (stored.test(id)) {
                return new Choice(k, other, id);
            }
        }
        return mine;
    }
}

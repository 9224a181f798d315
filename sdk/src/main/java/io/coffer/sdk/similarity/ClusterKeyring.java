package io.coffer.sdk.similarity;

import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * One key per cluster: the key source's key for the SHA-256 of the cluster's representative chunk (with the key
 * server, the OPRF of that hash, so the key server sees only a blinded hash, as for ordinary chunks). Keys are asked
 * for in batches and cached per cluster. Not thread-safe.
 */
public final class ClusterKeyring {
    private final KeySource source;
    private final Map<Integer, ChunkKey> keys = new HashMap<>();

    public ClusterKeyring(KeySource source) {
        if (!source.messageLocked()) {
            throw new IllegalArgumentException("cluster keys need a message-locked key source, not " + source.name());
        }
        this.source = source;
    }

    /** The keys of the given clusters of {@code index}, in order; clusters not seen before cost one batched call. */
    public List<ChunkKey> keysFor(ClusterIndex index, List<Integer> clusters) throws KeySourceException {
        return keysFor(index::representativeHash, clusters);
    }

    /**
     * The keys of the given groups, in order, a group's key being the key source's for {@code representativeHash} of
     * it (SimEnc's clusters, or another grouping such as LSH-MLE's); groups not seen before cost one batched call.
     */
    public List<ChunkKey> keysFor(IntFunction<byte[]> representativeHash, List<Integer> clusters)
            throws KeySourceException {
        Set<Integer> missing = new LinkedHashSet<>();
        for (int c : clusters) {
            if (!keys.containsKey(c)) {
                missing.add(c);
            }
        }
        if (!missing.isEmpty()) {
            List<byte[]> hashes = new ArrayList<>(missing.size());
            for (int c : missing) {
                hashes.add(representativeHash.apply(c));
            }
            List<ChunkKey> got = source.keysFor(hashes);
            if (got.size() != hashes.size()) {
                throw new KeySourceException("key source " + source.name() + " answered " + got.size() + " keys for "
                        + hashes.size() + " hashes");
            }
            int i = 0;
            for (int c : missing) {
                keys.put(c, got.get(i++));
            }
        }
        List<ChunkKey> out = new ArrayList<>(clusters.size());
        for (int c : clusters) {
            out.add(keys.get(c));
        }
        return out;
    }

    /** The key of one cluster. */
    public ChunkKey keyFor(ClusterIndex index, int cluster) throws KeySourceException {
        return keysFor(index, List.of(cluster)).get(0);
    }

    /** Distinct clusters a key was obtained for. */
    public int keysIssued() {
        return keys.size();
    }
}

package io.coffer.por.client;

import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleProof;
import io.coffer.por.server.LeafProof;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The nodes of U's Merkle tree along the paths of a run of writes (a pack's blocks), each path checked against the
 * client's root when it came, then kept current by the client's own writes: a write of the run takes its old leaf and
 * path from here instead of asking the server (one round trip less per block). Only the client changes U's leaves,
 * and every change it makes passes through {@link #add}, so these are the nodes of the tree its root commits to; a
 * cache whose root is no longer the client's is not used.
 */
final class PathCache {
    private final int depth;
    /** Node hashes by (level, position); level 0 holds the leaves' hashes. */
    private final Map<Long, byte[]> nodes = new HashMap<>();
    /** The sealed checksum of each leaf whose path is here (null: never written). */
    private final Map<Integer, byte[]> leaves = new HashMap<>();
    private byte[] root;

    PathCache(int depth, byte[] root) {
        this.depth = depth;
        this.root = root.clone();
    }

    /** Whether a write at {@code index} under {@code currentRoot} can take its path from here. */
    boolean covers(int index, byte[] currentRoot) {
        return leaves.containsKey(index) && Arrays.equals(root, currentRoot);
    }

    /** Leaf {@code index} and its path, as the server would prove it now; only when {@link #covers} says so. */
    LeafProof leaf(int index) {
        byte[][] siblings = new byte[depth][];
        int at = index;
        for (int level = 0; level < depth; level++) {
            siblings[level] = nodes.get(key(level, at ^ 1));
            at >>>= 1;
        }
        return new LeafProof(index, leaves.get(index), new MerkleProof(index, siblings));
    }

    /**
     * Records leaf {@code index} as {@code sealed} with its path (checked by the caller), and every node above it, so
     * later paths that pass through them are current; {@code newRoot} is the root that gives.
     */
    void add(int index, byte[] sealed, MerkleProof path, byte[] newRoot) {
        leaves.put(index, sealed);
        byte[] h = sealed == null ? MerkleHash.EMPTY_LEAF : MerkleHash.leaf(sealed);
        int at = index;
        nodes.put(key(0, at), h);
        for (int level = 0; level < depth; level++) {
            byte[] sibling = path.siblings()[level];
            nodes.put(key(level, at ^ 1), sibling);
            h = (at & 1) == 0 ? MerkleHash.node(h, sibling) : MerkleHash.node(sibling, h);
            at >>>= 1;
            nodes.put(key(level + 1, at), h);
        }
        root = newRoot.clone();
    }

    private static long key(int level, int position) {
        return ((long) level << 32) | (position & 0xffffffffL);
    }
}

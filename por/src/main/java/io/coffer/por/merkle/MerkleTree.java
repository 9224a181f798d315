package io.coffer.por.merkle;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The server's Merkle tree over the leaf hashes of U's sealed checksums: a complete binary tree of {@code capacity}
 * (a power of two) leaves, kept in one array (node i has children 2i and 2i+1, the root is node 1), so it costs
 * 64 bytes per leaf and no objects per node. Positions never set hold {@link MerkleHash#EMPTY_LEAF}; the tree of
 * empty leaves is built level by level from one hash per level, in O(capacity) hashing once.
 */
public final class MerkleTree {
    private final int capacity;
    private final int depth;
    private final byte[] nodes;
    private final MessageDigest digest = MerkleHash.digest();

    public MerkleTree(int capacity) {
        if (capacity <= 0 || (capacity & (capacity - 1)) != 0 || capacity > 1 << 26) {
            throw new IllegalArgumentException("capacity must be a power of two up to 2^26: " + capacity);
        }
        this.capacity = capacity;
        this.depth = Integer.numberOfTrailingZeros(capacity);
        this.nodes = new byte[2 * capacity * MerkleHash.BYTES];
        byte[] levelHash = MerkleHash.EMPTY_LEAF;
        for (int level = depth; level >= 0; level--) {
            for (int i = 1 << level; i < 2 << level; i++) {
                System.arraycopy(levelHash, 0, nodes, i * MerkleHash.BYTES, MerkleHash.BYTES);
            }
            levelHash = MerkleHash.node(levelHash, levelHash);
        }
    }

    /** The root of an all-empty tree of this capacity, computed in O(log capacity): the client's initial root. */
    public static byte[] emptyRoot(int capacity) {
        if (capacity <= 0 || (capacity & (capacity - 1)) != 0) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        byte[] h = MerkleHash.EMPTY_LEAF;
        for (int c = capacity; c > 1; c >>>= 1) {
            h = MerkleHash.node(h, h);
        }
        return h;
    }

    public int capacity() {
        return capacity;
    }

    public byte[] root() {
        return node(1);
    }

    public byte[] leaf(int index) {
        return node(capacity + checkIndex(index));
    }

    /** Sets leaf {@code index} and rehashes its path to the root. */
    public void set(int index, byte[] leafHash) {
        if (leafHash.length != MerkleHash.BYTES) {
            throw new IllegalArgumentException("leaf hash must be " + MerkleHash.BYTES + " bytes");
        }
        int i = capacity + checkIndex(index);
        System.arraycopy(leafHash, 0, nodes, i * MerkleHash.BYTES, MerkleHash.BYTES);
        for (i >>>= 1; i >= 1; i >>>= 1) {
            digest.update((byte) 1);
            digest.update(nodes, 2 * i * MerkleHash.BYTES, 2 * MerkleHash.BYTES);
            byte[] h = digest.digest();
            System.arraycopy(h, 0, nodes, i * MerkleHash.BYTES, MerkleHash.BYTES);
        }
    }

    /** The sibling hashes from leaf {@code index} up to (not including) the root. */
    public MerkleProof proof(int index) {
        byte[][] siblings = new byte[depth][];
        int i = capacity + checkIndex(index);
        for (int level = 0; level < depth; level++, i >>>= 1) {
            siblings[level] = node(i ^ 1);
        }
        return new MerkleProof(index, siblings);
    }

    private byte[] node(int i) {
        int from = i * MerkleHash.BYTES;
        return Arrays.copyOfRange(nodes, from, from + MerkleHash.BYTES);
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= capacity) {
            throw new IndexOutOfBoundsException("leaf " + index + " outside [0, " + capacity + ")");
        }
        return index;
    }
}

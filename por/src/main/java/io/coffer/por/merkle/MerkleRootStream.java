package io.coffer.por.merkle;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * The root of a Merkle tree ({@link MerkleTree}'s hashes) over leaves given in index order, in one hash per node
 * (2 capacity - 1 in all) and O(log capacity) memory: a stack of the roots of the complete subtrees so far. A C
 * rebuild's check of U's n sealed checksums against the client's root needs only the root, and
 * {@link MerkleTree#set} rehashes a whole path per leaf (n log n hashes); this also lets a client fold the leaves in
 * as they arrive, a part at a time.
 */
public final class MerkleRootStream {
    private final int capacity;
    private final List<byte[]> stack = new ArrayList<>();
    private final MessageDigest digest = MerkleHash.digest();
    private int added;

    public MerkleRootStream(int capacity) {
        if (capacity <= 0 || (capacity & (capacity - 1)) != 0) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        this.capacity = capacity;
    }

    /** The root over {@code sealed} (null: a position never written), all {@link MerkleTree#capacity} leaves. */
    public static byte[] of(List<byte[]> sealed) {
        MerkleRootStream stream = new MerkleRootStream(sealed.size());
        for (byte[] s : sealed) {
            stream.add(s == null ? MerkleHash.EMPTY_LEAF : MerkleHash.leaf(s));
        }
        return stream.root();
    }

    /** Adds the next leaf's hash; each pair of equal-sized subtrees on the stack is merged at once. */
    public void add(byte[] leafHash) {
        if (leafHash.length != MerkleHash.BYTES) {
            throw new IllegalArgumentException("leaf hash must be " + MerkleHash.BYTES + " bytes");
        }
        if (added == capacity) {
            throw new IllegalStateException("all " + capacity + " leaves are in");
        }
        byte[] node = leafHash;
        // leaf number added + 1 completes one subtree per trailing one bit of added
        for (int bits = added; (bits & 1) == 1; bits >>>= 1) {
            digest.update((byte) 1);
            digest.update(stack.remove(stack.size() - 1));
            node = digest.digest(node);
        }
        stack.add(node);
        added++;
    }

    /** The leaves added so far. */
    public int added() {
        return added;
    }

    /** The root, once every leaf is in. */
    public byte[] root() {
        if (added != capacity) {
            throw new IllegalStateException(added + " of " + capacity + " leaves are in");
        }
        return stack.get(0).clone();
    }
}

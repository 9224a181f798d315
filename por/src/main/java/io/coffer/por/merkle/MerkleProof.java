package io.coffer.por.merkle;

/**
 * The authentication path of one leaf: its index and the sibling hashes from the leaf level up. The client checks a
 * read with {@link #rootFor} of the leaf it got, and after a write computes its new root from the same path with the
 * new leaf (the path stays valid: only the written leaf changed).
 */
public record MerkleProof(int index, byte[][] siblings) {
    public MerkleProof {
        if (index < 0 || siblings.length > 31 || (siblings.length < 31 && index >= 1 << siblings.length)) {
            throw new IllegalArgumentException("index " + index + " does not fit a path of " + siblings.length);
        }
        for (byte[] s : siblings) {
            if (s == null || s.length != MerkleHash.BYTES) {
                throw new IllegalArgumentException("a sibling hash must be " + MerkleHash.BYTES + " bytes");
            }
        }
        siblings = siblings.clone();
    }

    /** The root that this path gives for {@code leafHash} at {@link #index()}. */
    public byte[] rootFor(byte[] leafHash) {
        byte[] h = leafHash;
        int i = index;
        for (byte[] sibling : siblings) {
            h = (i & 1) == 0 ? MerkleHash.node(h, sibling) : MerkleHash.node(sibling, h);
            i >>>= 1;
        }
        return h;
    }

    /** Bytes this proof takes on the wire: the siblings (the index travels with the request). */
    public int wireBytes() {
        return siblings.length * MerkleHash.BYTES;
    }
}

package io.coffer.por.server;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.merkle.MerkleProof;

/**
 * Block {@code index} of U as the server presents it: its bytes, its sealed checksum (null while the position was never
 * written: the block is then all zero and its leaf is the empty leaf) and the Merkle path of that leaf. The public
 * constructor and accessors copy the arrays; a reader that made the arrays itself hands them over with {@link
 * #owning}, and the verifier that consumes a block reads it in place with {@link #blockInPlace}: a verified GET then
 * copies each block once (into the caller's buffer), not three times.
 */
public final class ProvenBlock {
    private final int index;
    private final byte[] block;
    private final byte[] sealedChecksum;
    private final MerkleProof proof;

    public ProvenBlock(int index, byte[] block, byte[] sealedChecksum, MerkleProof proof) {
        this(index, proof, block.clone(), sealedChecksum == null ? null : sealedChecksum.clone());
    }

    private ProvenBlock(int index, MerkleProof proof, byte[] block, byte[] sealedChecksum) {
        this.index = index;
        this.block = block;
        this.sealedChecksum = sealedChecksum;
        this.proof = proof;
    }

    /** A proven block that takes {@code block} and {@code sealedChecksum} over: the caller keeps no reference. */
    public static ProvenBlock owning(int index, byte[] block, byte[] sealedChecksum, MerkleProof proof) {
        return new ProvenBlock(index, proof, block, sealedChecksum);
    }

    public int index() {
        return index;
    }

    public byte[] block() {
        return block.clone();
    }

    /**
     * The block's own array, not a copy: for the one consumer of this block (the client's verification, which hands
     * the verified bytes on), which must not change it.
     */
    public byte[] blockInPlace() {
        return block;
    }

    public byte[] sealedChecksum() {
        return sealedChecksum == null ? null : sealedChecksum.clone();
    }

    public MerkleProof proof() {
        return proof;
    }

    /** Bytes on the wire besides the block: the sealed checksum and the path. */
    public long overheadBytes() {
        return ChecksumSealer.SEALED_BYTES + proof.wireBytes();
    }
}

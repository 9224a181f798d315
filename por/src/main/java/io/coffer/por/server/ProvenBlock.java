package io.coffer.por.server;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.merkle.MerkleProof;

/**
 * Block {@code index} of U as the server presents it: its bytes, its sealed checksum (null while the position was never
 * written: the block is then all zero and its leaf is the empty leaf) and the Merkle path of that leaf.
 */
public record ProvenBlock(int index, byte[] block, byte[] sealedChecksum, MerkleProof proof) {
    public ProvenBlock {
        block = block.clone();
        sealedChecksum = sealedChecksum == null ? null : sealedChecksum.clone();
    }

    @Override
    public byte[] block() {
        return block.clone();
    }

    @Override
    public byte[] sealedChecksum() {
        return sealedChecksum == null ? null : sealedChecksum.clone();
    }

    /** Bytes on the wire besides the block: the sealed checksum and the path. */
    public long overheadBytes() {
        return ChecksumSealer.SEALED_BYTES + proof.wireBytes();
    }
}

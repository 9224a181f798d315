package io.coffer.por.server;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.merkle.MerkleProof;

/**
 * The leaf of U's Merkle tree at {@code index}: the sealed checksum (null while never written) and its path. The
 * client checks it against its root before a write, then derives the new root from the same path.
 */
public record LeafProof(int index, byte[] sealedChecksum, MerkleProof proof) {
    public LeafProof {
        sealedChecksum = sealedChecksum == null ? null : sealedChecksum.clone();
    }

    @Override
    public byte[] sealedChecksum() {
        return sealedChecksum == null ? null : sealedChecksum.clone();
    }

    public long wireBytes() {
        return ChecksumSealer.SEALED_BYTES + proof.wireBytes();
    }
}

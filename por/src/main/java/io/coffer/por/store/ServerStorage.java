package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleTree;

/**
 * What a PoR server keeps, in memory: U (block bytes and sealed checksums, null where never written), the Merkle tree
 * over U's sealed checksums, the code vectors of H's levels 0..k and C (level k + 1) and their sealed checksums.
 * Plain storage with no protocol logic; a test damages it the way a disk or a dishonest server would.
 */
public final class ServerStorage {
    private final int blockBytes;
    private final CodeParameters params;
    private final byte[][] u;
    private final byte[][] uSealed;
    private final MerkleTree tree;
    private final MemoryLevelStore vectors;
    private final byte[][][][] sealed; // [level][part][index]

    public ServerStorage(int k, int blockBytes, int vectorWidth) {
        if (blockBytes <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockBytes);
        }
        this.blockBytes = blockBytes;
        this.params = new CodeParameters(k);
        this.u = new byte[params.n()][];
        this.uSealed = new byte[params.n()][];
        this.tree = new MerkleTree(params.n());
        this.vectors = new MemoryLevelStore(params, vectorWidth);
        this.sealed = new byte[k + 2][][][];
    }

    public int blockBytes() {
        return blockBytes;
    }

    public CodeParameters parameters() {
        return params;
    }

    public int n() {
        return params.n();
    }

    /** U[index], or null where it was never written or is lost (then {@link #uSealed} says which). */
    public byte[] u(int index) {
        return u[index];
    }

    public void setU(int index, byte[] block) {
        u[index] = block;
    }

    public byte[] uSealed(int index) {
        return uSealed[index];
    }

    /** Sets U's sealed checksum and its Merkle leaf. */
    public void setUSealed(int index, byte[] sealedChecksum) {
        if (sealedChecksum.length != ChecksumSealer.SEALED_BYTES) {
            throw new IllegalArgumentException("a sealed checksum is " + ChecksumSealer.SEALED_BYTES + " bytes");
        }
        uSealed[index] = sealedChecksum;
        tree.set(index, MerkleHash.leaf(sealedChecksum));
    }

    public MerkleTree tree() {
        return tree;
    }

    /** The code vectors of H and C, as the code reads and writes them. */
    public MemoryLevelStore vectors() {
        return vectors;
    }

    public byte[][] sealed(int level, Part part) {
        byte[][][] parts = sealed[level];
        return parts == null ? null : parts[part.ordinal()];
    }

    public void setSealed(int level, byte[][] x, byte[][] y) {
        sealed[level] = new byte[][][] {x, y};
    }

    public void clearSealed(int level) {
        sealed[level] = null;
    }
}

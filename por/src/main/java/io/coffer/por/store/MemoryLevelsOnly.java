package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LowerLevels;
import io.coffer.por.code.Part;
import io.coffer.por.code.Recovery;
import io.coffer.por.merkle.MerkleProof;

/**
 * A {@link DirectoryStorage} as the replay of a journal's window sees it ({@link JournaledPorServer}): the window's
 * adds rebuild H's levels below {@code levels} (those the checkpoint held in memory only), vectors and sealed
 * checksums, and nothing else: U, its Merkle tree, the levels above and C were on disk at the checkpoint, so writes
 * to them are dropped and the levels above read as zeros ({@link LowerLevels}).
 */
final class MemoryLevelsOnly implements PorStorage {
    private final DirectoryStorage storage;
    private final int levels;
    private final LowerLevels hVectors;

    /**
     * {@code unwrittenAsZero}: the window is long enough ({@link io.coffer.por.code.WriteLog#addsHeldBelow}) that
     * inputs from before it are dead by its end; otherwise the levels were in the files where the window starts.
     */
    MemoryLevelsOnly(DirectoryStorage storage, int levels, boolean unwrittenAsZero) {
        this.storage = storage;
        this.levels = levels;
        this.hVectors = new LowerLevels(storage.hVectors(), levels, unwrittenAsZero);
    }

    @Override
    public int blockBytes() {
        return storage.blockBytes();
    }

    @Override
    public int batchExponent() {
        return storage.batchExponent();
    }

    @Override
    public CodeParameters cParameters() {
        return storage.cParameters();
    }

    @Override
    public CodeParameters hParameters() {
        return storage.hParameters();
    }

    @Override
    public byte[] u(int index) {
        return storage.u(index);
    }

    @Override
    public void setU(int index, byte[] block) {
        // on disk since the checkpoint
    }

    @Override
    public byte[] uSealed(int index) {
        return storage.uSealed(index);
    }

    @Override
    public void setUSealed(int index, byte[] sealedChecksum) {
        // on disk since the checkpoint, and so is the Merkle tree built from it
    }

    @Override
    public MerkleProof proof(int index) {
        return storage.proof(index);
    }

    @Override
    public byte[] root() {
        return storage.root();
    }

    @Override
    public LevelStore hVectors() {
        return hVectors;
    }

    @Override
    public LevelStore cVectors() {
        return storage.cVectors();
    }

    @Override
    public Recovery.PartReader hParts() {
        return storage.hParts();
    }

    @Override
    public Recovery.PartReader cParts() {
        return storage.cParts();
    }

    @Override
    public byte[] sealedH(int level, Part part, int position) {
        return storage.sealedH(level, part, position);
    }

    @Override
    public void setSealedH(int level, int position, byte[] x, byte[] y) {
        if (level < levels) {
            storage.setSealedH(level, position, x, y);
        }
    }

    @Override
    public void clearSealedH() {
        throw new IllegalStateException("a journal's window holds no C rebuild");
    }

    @Override
    public boolean hasSealedC() {
        return storage.hasSealedC();
    }

    @Override
    public byte[][] sealedC(Part part) {
        return storage.sealedC(part);
    }

    @Override
    public byte[] sealedC(Part part, int index) {
        return storage.sealedC(part, index);
    }

    @Override
    public void setSealedC(byte[][] x, byte[][] y) {
        throw new IllegalStateException("a journal's window holds no C rebuild");
    }
}

package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.code.Recovery;
import io.coffer.por.code.SlicedRecovery;
import io.coffer.por.merkle.MerkleProof;
import java.util.function.IntFunction;

/**
 * What a PoR server keeps: U (block bytes and sealed checksums), the Merkle tree over U's sealed checksums, the code
 * vectors of H (levels 0..k-b with three run slots each, each vector a batch of 2^b tagged blocks) and of C (level
 * k + 1 of a log over single blocks), and their sealed checksums. Plain storage with no protocol logic: {@link ServerStorage} keeps it in memory
 * (tests damage it there), {@link DirectoryStorage} in files.
 */
public interface PorStorage {
    int blockBytes();

    int batchExponent();

    /** The parameters of the log over blocks, whose level k + 1 is C. */
    CodeParameters cParameters();

    /** The parameters of H, a log over batches: capacity exponent k - b. */
    CodeParameters hParameters();

    default int n() {
        return cParameters().n();
    }

    /** U[index], or null where it was never written or is lost (then {@link #uSealed} says which). */
    byte[] u(int index);

    /** Whether U[index] was written and its block is gone (its sealed checksum remains). */
    default boolean lost(int index) {
        return u(index) == null && uSealed(index) != null;
    }

    /** Whether no block and no checksum of U was ever stored (a new store); a scan of U here. */
    default boolean uEmpty() {
        for (int i = 0; i < n(); i++) {
            if (u(i) != null || uSealed(i) != null) {
                return false;
            }
        }
        return true;
    }

    /** Stores {@code block} as U[index] (the caller no longer changes it); null marks it lost. */
    void setU(int index, byte[] block);

    /** U's sealed checksum at {@code index}, null where never written. */
    byte[] uSealed(int index);

    /** Sets U's sealed checksum and its Merkle leaf. */
    void setUSealed(int index, byte[] sealedChecksum);

    /** The Merkle path of leaf {@code index}: the sibling hashes up to the root. */
    MerkleProof proof(int index);

    /**
     * {@link #u} of each of {@code indices}, each in an array the caller owns (a copy here; storage that reads its
     * blocks from files gives fresh ones and reads a run of adjacent blocks at once): a range of a pack read together.
     */
    default byte[][] uBlocks(int[] indices) {
        return copies(indices, this::u);
    }

    /** {@link #uSealed} of each of {@code indices}, each in an array the caller owns. */
    default byte[][] uSealedAll(int[] indices) {
        return copies(indices, this::uSealed);
    }

    private static byte[][] copies(int[] indices, IntFunction<byte[]> read) {
        byte[][] out = new byte[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            byte[] bytes = read.apply(indices[i]);
            out[i] = bytes == null ? null : bytes.clone();
        }
        return out;
    }

    /** {@link #proof} of each of {@code indices}: their paths share most nodes, which storage in files reads once. */
    default MerkleProof[] proofs(int[] indices) {
        MerkleProof[] out = new MerkleProof[indices.length];
        for (int i = 0; i < indices.length; i++) {
            out[i] = proof(indices[i]);
        }
        return out;
    }

    /** The root of the Merkle tree over U's sealed checksums. */
    byte[] root();

    /** H's code vectors (levels 0..k-b), as the code reads and writes them. */
    LevelStore hVectors();

    /** C's code vectors, at level k + 1 of {@link #cParameters()}. */
    LevelStore cVectors();

    /** Reads whole parts of H's levels for decoding, null where a vector is lost. */
    Recovery.PartReader hParts();

    /** Reads C's parts for decoding, null where a vector is lost. */
    Recovery.PartReader cParts();

    /** Reads slices of element positions of H's parts for decoding in bounded memory; by default from {@link #hParts}. */
    default SlicedRecovery.SliceReader hSlices() {
        return SlicedRecovery.SliceReader.of(hParts());
    }

    /** Reads slices of element positions of C's parts; by default from {@link #cParts}. */
    default SlicedRecovery.SliceReader cSlices() {
        return SlicedRecovery.SliceReader.of(cParts());
    }

    /** A spool for {@code rows} decoded blocks of {@code width} elements; by default in memory. */
    default DecodeSpool decodeSpool(int rows, int width) {
        return DecodeSpool.inMemory(rows, width);
    }

    /**
     * The sealed checksum of vector {@code position} of one part of H's level {@code level} (positions 0 ..
     * 3 * 2^level - 1: the level's {@link io.coffer.por.code.DeamortizedLog#SLOTS} run slots), null where none is
     * stored. Which positions are current follows from the log's runs, not from this storage.
     */
    byte[] sealedH(int level, Part part, int position);

    /** Stores the sealed checksums of both parts of H's vector {@code position} of {@code level}. */
    void setSealedH(int level, int position, byte[] x, byte[] y);

    /** Forgets H's sealed checksums (a C rebuild empties H); storage that cannot may keep them. */
    void clearSealedH();

    /**
     * Whether H is still in the amortised layout of a store created before H was deamortised: not valid as the
     * deamortised log's runs, so nothing may use H until a resynchronisation empties it ({@link #clearSealedH}).
     */
    default boolean hInAmortizedLayout() {
        return false;
    }

    boolean hasSealedC();

    /** C's sealed checksums of one part, or null before C is first built. */
    byte[][] sealedC(Part part);

    /** One sealed checksum of C (which must have them). */
    byte[] sealedC(Part part, int index);

    void setSealedC(byte[][] x, byte[][] y);
}

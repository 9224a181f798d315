package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.CopyOnWriteSnapshot;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.code.Recovery;
import io.coffer.por.code.SlicedRecovery;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleProof;
import io.coffer.por.merkle.MerkleTree;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@link PorStorage} of a PoR server in memory: U (block bytes and sealed checksums, null where never written),
 * the Merkle tree over U's sealed checksums, the code vectors of H (levels 0..k-b, each vector a batch of 2^b tagged
 * blocks) and of C (level k + 1 of a log over single blocks), and their sealed checksums. Plain storage with no
 * protocol logic; a test damages it the way a disk or a dishonest server would.
 */
public final class ServerStorage implements ClientPartStorage {
    private final int blockBytes;
    private final int batchExponent;
    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final byte[][] u;
    private final byte[][] uSealed;
    private final MerkleTree tree;
    private MemoryLevelStore hVectors;
    private MemoryLevelStore cVectors;
    private byte[][][][] sealedH; // [level][part][position], allocated on first write
    private byte[][][] sealedC; // [part][index]
    /** A paced rebuild's window: the frozen H and its sealed checksums, the next C; null outside a window. */
    private MemoryLevelStore frozenH;
    private byte[][][][] frozenSealedH;
    private MemoryLevelStore nextC;
    private CopyOnWriteSnapshot.Aside copies;
    /** The next C's sealed checksums, X and Y, from the epoch's end (already O(n) there), not copied at the switch. */
    private byte[][][] nextSealed;
    /** The next C's positions whose sealed checksums the client has not uploaded yet. */
    private int nextSealedMissing;
    /** Whether the window's freeze was {@link #freezeHForClient}. */
    private boolean clientPart;
    /** U's sealed checksums at the freeze, at their first change in the window ({@link #NEVER_WRITTEN}: none). */
    private Map<Integer, byte[]> sealedAside;
    private static final byte[] NEVER_WRITTEN = new byte[0];

    /** Storage for 2^k blocks of {@code blockBytes}, each a vector of {@code blockWidth} elements once tagged. */
    public ServerStorage(int k, int batchExponent, int blockBytes, int blockWidth) {
        if (blockBytes <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockBytes);
        }
        if (batchExponent < 0 || batchExponent > k) {
            throw new IllegalArgumentException("batch exponent must be in [0, " + k + "]: " + batchExponent);
        }
        this.blockBytes = blockBytes;
        this.batchExponent = batchExponent;
        this.cParams = new CodeParameters(k);
        this.hParams = new CodeParameters(k - batchExponent);
        this.u = new byte[cParams.n()][];
        this.uSealed = new byte[cParams.n()][];
        this.tree = new MerkleTree(cParams.n());
        this.hVectors = new MemoryLevelStore(hParams, blockWidth << batchExponent, DeamortizedLog.SLOTS);
        this.cVectors = new MemoryLevelStore(cParams, blockWidth);
        this.sealedH = new byte[hParams.k() + 1][][][];
    }

    /**
     * Storage for 2^{@code k} blocks holding this one's U (its first 2^k blocks, when smaller), blocks and sealed
     * checksums at the same indices (the arrays themselves), the rest never written; no code vectors: the resized
     * store's C is rebuilt.
     */
    public ServerStorage resizedTo(int k) {
        ServerStorage grown = new ServerStorage(k, batchExponent, blockBytes, cVectors.width());
        for (int i = 0; i < Math.min(u.length, grown.u.length); i++) {
            grown.u[i] = u[i];
            if (uSealed[i] != null) {
                grown.setUSealed(i, uSealed[i]);
            }
        }
        return grown;
    }

    @Override
    public int blockBytes() {
        return blockBytes;
    }

    @Override
    public int batchExponent() {
        return batchExponent;
    }

    /** The parameters of the log over blocks, whose level k + 1 is C. */
    @Override
    public CodeParameters cParameters() {
        return cParams;
    }

    /** The parameters of H, a log over batches: capacity exponent k - b. */
    @Override
    public CodeParameters hParameters() {
        return hParams;
    }

    @Override
    public int n() {
        return cParams.n();
    }

    /** U[index], or null where it was never written or is lost (then {@link #uSealed} says which). */
    @Override
    public byte[] u(int index) {
        return u[index];
    }

    /** Keeps {@code block} itself (no copy), so a test can damage U in place through {@link #u}. */
    @Override
    public void setU(int index, byte[] block) {
        u[index] = block;
    }

    @Override
    public byte[] uSealed(int index) {
        return uSealed[index];
    }

    /** Sets U's sealed checksum and its Merkle leaf. */
    @Override
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

    @Override
    public MerkleProof proof(int index) {
        return tree.proof(index);
    }

    @Override
    public byte[] root() {
        return tree.root();
    }

    /** H's code vectors (levels 0..k-b), as the code reads and writes them. */
    @Override
    public MemoryLevelStore hVectors() {
        return hVectors;
    }

    /** C's code vectors, at level k + 1 of this store. */
    @Override
    public MemoryLevelStore cVectors() {
        return cVectors;
    }

    @Override
    public byte[] sealedH(int level, Part part, int position) {
        int size = hParams.partSize(level, DeamortizedLog.SLOTS);
        if (position < 0 || position >= size) {
            throw new IllegalArgumentException("no sealed checksum " + position + " in level " + level + " of H");
        }
        byte[][][] parts = sealedH[level];
        return parts == null ? null : parts[part.ordinal()][position];
    }

    /** Keeps the arrays themselves (no copy), so a test can replace or damage one in place. */
    @Override
    public void setSealedH(int level, int position, byte[] x, byte[] y) {
        int size = hParams.partSize(level, DeamortizedLog.SLOTS);
        if (position < 0 || position >= size) {
            throw new IllegalArgumentException("no sealed checksum " + position + " in level " + level + " of H");
        }
        if (sealedH[level] == null) {
            sealedH[level] = new byte[2][size][];
        }
        sealedH[level][0][position] = x;
        sealedH[level][1][position] = y;
    }

    @Override
    public void clearSealedH() {
        Arrays.fill(sealedH, null);
    }

    @Override
    public byte[][] sealedC(Part part) {
        return sealedC == null ? null : sealedC[part.ordinal()];
    }

    @Override
    public void setSealedC(byte[][] x, byte[][] y) {
        sealedC = new byte[][][] {x, y};
    }

    @Override
    public Recovery.PartReader hParts() {
        return hVectors::copy;
    }

    @Override
    public Recovery.PartReader cParts() {
        return cVectors::copy;
    }

    /** Swaps references only: the window's storage costs no copy. */
    @Override
    public void freezeH(long epoch, byte[][] nextX, byte[][] nextY) {
        copies = CopyOnWriteSnapshot.Aside.inMemory();
        sealedAside = new HashMap<>();
        nextSealed = new byte[][][] {nextX, nextY};
        nextSealedMissing = 0;
        clientPart = false;
        frozenH = hVectors;
        frozenSealedH = sealedH;
        hVectors = new MemoryLevelStore(hParams, frozenH.width(), DeamortizedLog.SLOTS);
        sealedH = new byte[hParams.k() + 1][][][];
        nextC = new MemoryLevelStore(cParams, cVectors.width());
    }

    @Override
    public void freezeHForClient(long epoch) {
        freezeH(epoch, new byte[cParams.n()][], new byte[cParams.n()][]);
        nextSealedMissing = cParams.n();
        clientPart = true;
    }

    @Override
    public void keepSealedUAside(int index) {
        inWindow(sealedAside).computeIfAbsent(index, i -> uSealed[i] == null ? NEVER_WRITTEN : uSealed[i]);
    }

    @Override
    public byte[] snapshotSealedU(int index) {
        byte[] sealed = inWindow(sealedAside).getOrDefault(index, uSealed[index]);
        return sealed == NEVER_WRITTEN ? null : sealed;
    }

    @Override
    public void setNextSealedC(int from, byte[][] x, byte[][] y) {
        byte[][][] next = inWindow(nextSealed);
        for (int i = 0; i < x.length; i++) {
            if (next[0][from + i] == null) {
                nextSealedMissing--;
            }
            next[0][from + i] = x[i];
            next[1][from + i] = y[i];
        }
    }

    @Override
    public boolean nextSealedComplete() {
        inWindow(nextSealed);
        return nextSealedMissing == 0;
    }

    @Override
    public boolean windowTakesClientPart() {
        return nextSealed != null && clientPart;
    }

    /** The next C's sealed checksums kept so far, [part][position]: tests drop or alter them here. */
    public byte[][][] nextSealedC() {
        return inWindow(nextSealed);
    }

    @Override
    public MemoryLevelStore frozenHVectors() {
        return inWindow(frozenH);
    }

    @Override
    public byte[] frozenSealedH(int level, Part part, int position) {
        inWindow(frozenH);
        if (position < 0 || position >= hParams.partSize(level, DeamortizedLog.SLOTS)) {
            throw new IllegalArgumentException("no sealed checksum " + position + " in level " + level + " of H");
        }
        byte[][][] parts = frozenSealedH[level];
        return parts == null ? null : parts[part.ordinal()][position];
    }

    /** The frozen H's sealed checksums of {@code level}, [part][position] (null if none): tests damage them here. */
    public byte[][][] frozenSealedH(int level) {
        inWindow(frozenH);
        return frozenSealedH[level];
    }

    @Override
    public SlicedRecovery.SliceReader frozenHSlices() {
        return SlicedRecovery.SliceReader.of(inWindow(frozenH)::copy);
    }

    @Override
    public CopyOnWriteSnapshot.Aside copies() {
        return inWindow(copies);
    }

    @Override
    public MemoryLevelStore nextCVectors() {
        return inWindow(nextC);
    }

    @Override
    public void switchC() {
        cVectors = inWindow(nextC);
        setSealedC(nextSealed[0], nextSealed[1]);
        dropWindow();
    }

    @Override
    public void dropWindow() {
        frozenH = null;
        frozenSealedH = null;
        nextC = null;
        copies = null;
        sealedAside = null;
        nextSealed = null;
    }

    private static <T> T inWindow(T held) {
        if (held == null) {
            throw new IllegalStateException("no paced C rebuild is in its window");
        }
        return held;
    }

    @Override
    public boolean hasSealedC() {
        return sealedC != null;
    }

    @Override
    public byte[] sealedC(Part part, int index) {
        return sealedC[part.ordinal()][index];
    }
}

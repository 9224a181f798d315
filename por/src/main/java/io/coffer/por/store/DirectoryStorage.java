package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.CopyOnWriteSnapshot;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.code.Recovery;
import io.coffer.por.code.SlicedRecovery;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleProof;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;

/**
 * The {@link PorStorage} of a PoR server in a directory, in fixed-size record files read and written by index:
 * <ul>
 *   <li>{@code u.blocks}: U, block i at i * blockBytes;</li>
 *   <li>{@code u.sealed}: per block a record of (block present, checksum present, sealed checksum);</li>
 *   <li>{@code h-<level>-<x|y>.vectors}, {@code c-<k+1>-<x|y>.vectors}: the code vectors ({@link FileLevelStore});
 *   H's levels have {@link DeamortizedLog#SLOTS} run slots;</li>
 *   <li>{@code h-<level>.sealed}: the sealed checksum of each vector of H's level, written in place
 *   ({@link SealedHFiles}); {@code c.sealed}: C's, part X, then part Y.</li>
 * </ul>
 * U's blocks and the code vectors may be objects of a bucket instead ({@link BlobUBlocks}, {@link BlobLevelStore}),
 * C's and H's under key prefixes of generations ({@link BlobGenerations}). U's writes are held until {@link #force}
 * ({@link HeldU}); a paced C rebuild's window is kept in files or the bucket alike ({@link PacedWindowFiles}), also
 * one whose next C's sealed checksums the client uploads in it ({@link ClientPartStorage}, {@link NextSealedFile}).
 * Files grow as they are written (sparse where never written). Which of H's vectors are current is not stored here:
 * it follows from the log state (its runs); whether C has checksums the owner restores with
 * {@link #resetSealedPresence}. The Merkle tree is {@code u.merkle} ({@link FileMerkleTree}), rebuilt from
 * {@code u.sealed} at every open and written with U's pending writes. Writes reach the disk at {@link #force}. Within a
 * memory budget (none by default: {@link SmallLevelsInMemory#defaultBudget}) H's smallest levels, vectors and sealed
 * checksums, are kept in memory only.
 */
public final class DirectoryStorage implements ClientPartStorage, AutoCloseable {
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;
    /** A record of u.sealed: block present (1), checksum present (1), the sealed checksum. */
    static final int U_RECORD = 2 + SEALED;

    private final Path dir;
    private final int blockBytes;
    private final int batchExponent;
    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final HeldU u;
    private FileMerkleTree tree;
    private SmallLevelsInMemory hVectors;
    private VectorStore cVectors;
    private SealedHFiles hSealed;
    /** The bucket of U's blocks and the code vectors, and where in it C and H are; both null: files. */
    private final BlobStore objects;
    private final BlobGenerations generations;
    private final ByteOrder vectorOrder;
    private final int blockWidth;
    /** A paced C rebuild's window (docs/POR.md) and, after its switch, its files' deletes. */
    private final DirectoryWindow windows;
    /** The parameters file to mark once H is emptied, while H is in the amortised layout; else null. */
    private Path layoutToMark;
    private boolean cSealed;
    private DirectoryStorage(Path dir, int k, int batchExponent, int blockBytes, HeldU u,
            SmallLevelsInMemory hVectors, VectorStore cVectors, BlobStore objects, BlobGenerations generations,
            ByteOrder vectorOrder, int blockWidth) {
        this.objects = objects;
        this.generations = generations;
        this.vectorOrder = vectorOrder;
        this.blockWidth = blockWidth;
        this.dir = dir;
        this.blockBytes = blockBytes;
        this.batchExponent = batchExponent;
        this.cParams = new CodeParameters(k);
        this.hParams = new CodeParameters(k - batchExponent);
        this.u = u;
        this.hVectors = hVectors;
        this.cVectors = cVectors;
        this.hSealed = new SealedHFiles(dir, hParams, hVectors.memoryLevels());
        this.windows = new DirectoryWindow(dir, objects, generations, vectorOrder, cParams, hParams,
                hVectors.width(), blockWidth, this::uSealed);
    }

    /**
     * Opens (creating what is missing) the storage in {@code dir} for 2^k blocks of {@code blockBytes}, each a vector
     * of {@code blockWidth} elements once tagged (as ints in the platform's byte order: a new store's), and rebuilds
     * the Merkle tree from U's sealed checksums.
     */
    public static DirectoryStorage open(Path dir, int k, int batchExponent, int blockBytes, int blockWidth)
            throws IOException {
        return open(dir, k, batchExponent, blockBytes, blockWidth, null);
    }

    /**
     * As {@link #open(Path, int, int, int, int)}, but with U's blocks and the code vectors of C and H as objects of
     * {@code objects} (a bucket; null: files in {@code dir}). The sealed checksums, the Merkle file and everything
     * else stay in {@code dir}.
     */
    public static DirectoryStorage open(Path dir, int k, int batchExponent, int blockBytes, int blockWidth,
            BlobStore objects) throws IOException {
        return open(dir, k, batchExponent, blockBytes, blockWidth, objects, ByteOrder.nativeOrder(),
                SmallLevelsInMemory.defaultBudget());
    }

    /**
     * As {@link #open(Path, int, int, int, int, BlobStore)}, with the code vectors' ints in {@code vectorOrder} (what
     * the server's {@code parameters} file records: the platform's for a new store, big-endian for an older one) and
     * at most {@code memoryBudget} bytes of H's smallest levels in memory (0: every level in files).
     */
    public static DirectoryStorage open(Path dir, int k, int batchExponent, int blockBytes, int blockWidth,
            BlobStore objects, ByteOrder vectorOrder, long memoryBudget) throws IOException {
        if (blockBytes <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockBytes);
        }
        if (batchExponent < 0 || batchExponent > k) {
            throw new IllegalArgumentException("batch exponent must be in [0, " + k + "]: " + batchExponent);
        }
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve("decode.spool")); // scratch of a decode a crash interrupted
        BlobGenerations generations = objects == null ? null : BlobGenerations.read(dir, objects);
        PacedWindowFiles.State windowState = PacedWindowFiles.complete(dir, generations);
        if (windowState == null) { // a former window's files a switch left to be cut, or a crash
            PacedWindowFiles.deleteLeftovers(dir);
        }
        if (generations != null) {
            generations.finishRetiredOrLeave(); // a switch's deletes a crash or a close cut short
        }
        CodeParameters cParams = new CodeParameters(k);
        CodeParameters hParams = new CodeParameters(k - batchExponent);
        HeldU u = HeldU.open(dir, objects == null ? new FileUBlocks(dir.resolve("u.blocks"), blockBytes)
                : new BlobUBlocks(objects, "", blockBytes), cParams.n(), blockBytes);
        int hWidth = blockWidth << batchExponent;
        VectorStore hFiles = vectors(dir, objects, hPrefix(windowState, generations), hParams, hWidth, vectorOrder,
                DeamortizedLog.SLOTS);
        SmallLevelsInMemory h = new SmallLevelsInMemory(hFiles, hParams,
                SmallLevelsInMemory.memoryLevels(hParams, hWidth, DeamortizedLog.SLOTS, memoryBudget));
        VectorStore c = vectors(dir, objects, cPrefix(generations), cParams, blockWidth, vectorOrder, 1);
        DirectoryStorage storage = new DirectoryStorage(dir, k, batchExponent, blockBytes, u, h, c, objects,
                generations, vectorOrder, blockWidth);
        try {
            if (windowState != null) {
                storage.windows.resume(windowState);
            }
            storage.rebuildTree();
        } catch (IOException | RuntimeException e) {
            storage.close();
            throw e;
        }
        return storage;
    }

    /**
     * A level store of the code vectors: files {@code <name>-<level>-<x|y>.vectors} in {@code dir}, or objects under
     * {@code <generation's prefix><name>-} in {@code objects}; {@code name} is "h", "c", or a window's.
     */
    static VectorStore vectors(Path dir, BlobStore objects, String name, CodeParameters params, int width,
            ByteOrder order, int slots) {
        return objects == null ? new FileLevelStore(dir, name, params, width, order, slots)
                : new BlobLevelStore(objects, name, params, width, order, slots);
    }

    /** H's name: "h", under the window's generation while a window record is there (BlobGenerations). */
    private static String hPrefix(PacedWindowFiles.State window, BlobGenerations generations) {
        return generations == null ? "h" : BlobGenerations.hPrefix(window, generations) + "h";
    }

    private static String cPrefix(BlobGenerations generations) {
        return generations == null ? "c" : BlobGenerations.prefix(generations.current()) + "c";
    }

    /** How many of H's levels, from level 0, are kept in memory only. */
    public int memoryLevels() {
        return hVectors.memoryLevels();
    }

    /**
     * Writes H's levels in memory, code vectors and sealed checksums, to their files (the vectors forced at the next
     * {@link #force}), to be read from there: before a checkpoint taken while they are filled.
     */
    public void spillMemoryLevels() {
        hVectors.spill();
        hSealed.spill();
    }

    /**
     * H is in the amortised layout of an older store ({@code parameters} has no layout mark): nothing uses it until
     * a resynchronisation empties it, which then marks {@code parameters} ({@link ParametersFile#markDeamortized}).
     */
    public void awaitDeamortizedLayout(Path parameters) {
        layoutToMark = parameters;
    }

    @Override
    public boolean hInAmortizedLayout() {
        return layoutToMark != null;
    }

    /** Whether C holds checksums, as the log state says. */
    public void resetSealedPresence(boolean cBuilt) {
        cSealed = cBuilt;
    }

    @Override
    public int blockBytes() {
        return blockBytes;
    }

    @Override
    public int batchExponent() {
        return batchExponent;
    }

    @Override
    public CodeParameters cParameters() {
        return cParams;
    }

    @Override
    public CodeParameters hParameters() {
        return hParams;
    }

    @Override
    public byte[] u(int index) {
        return uBlocks(new int[] {index})[0];
    }

    /** Written (its checksum is there) and its block is not: marked lost, or gone from the bucket. */
    @Override
    public boolean lost(int index) {
        return u.lost(index);
    }

    /** Whether {@code u.sealed}, where every block and checksum stored is marked, was never written. */
    @Override
    public boolean uEmpty() {
        return u.empty();
    }

    @Override
    public void setU(int index, byte[] block) {
        u.setBlock(index, block); // the caller no longer changes it (PorStorage.setU): the server hands over a copy
    }

    @Override
    public byte[] uSealed(int index) {
        return uSealedAll(new int[] {index})[0];
    }

    @Override
    public void setUSealed(int index, byte[] sealedChecksum) {
        u.setSealed(index, sealedChecksum);
        tree.set(index, MerkleHash.leaf(sealedChecksum)); // the tree file is a cache, rebuilt from u.sealed at open
    }

    @Override
    public MerkleProof proof(int index) {
        return tree.proof(index);
    }

    /** Fresh arrays; a run of adjacent blocks is one read of U's blocks, and their records one of u.sealed. */
    @Override
    public byte[][] uBlocks(int[] indices) {
        return u.blocks(indices);
    }

    @Override
    public byte[][] uSealedAll(int[] indices) {
        return u.sealed(indices);
    }

    @Override
    public MerkleProof[] proofs(int[] indices) {
        return tree.proofs(indices);
    }

    @Override
    public byte[] root() {
        return tree.root();
    }

    @Override
    public LevelStore hVectors() {
        return hVectors;
    }

    @Override
    public LevelStore cVectors() {
        return cVectors;
    }

    @Override
    public Recovery.PartReader hParts() {
        return hVectors::copy;
    }

    @Override
    public Recovery.PartReader cParts() {
        return cVectors::copy;
    }

    @Override
    public SlicedRecovery.SliceReader hSlices() {
        return hVectors::readSlice;
    }

    @Override
    public SlicedRecovery.SliceReader cSlices() {
        return cVectors::readSlice;
    }

    /** A spool in {@code decode.spool} of the directory (one at a time: a new one replaces the file). */
    @Override
    public DecodeSpool decodeSpool(int rows, int width) {
        return new FileDecodeSpool(dir.resolve("decode.spool"), rows, width);
    }

    @Override
    public byte[] sealedH(int level, Part part, int position) {
        return hSealed.get(level, part, position);
    }

    @Override
    public void setSealedH(int level, int position, byte[] x, byte[] y) {
        hSealed.set(level, position, x, y);
    }

    /** Also records the deamortised layout of an older store whose H this empties (the journal redoes it). */
    @Override
    public void clearSealedH() {
        hSealed.clear();
        if (layoutToMark != null) {
            try {
                ParametersFile.markDeamortized(layoutToMark);
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot mark the layout of H in " + layoutToMark, e);
            }
            layoutToMark = null;
        }
    }

    @Override
    public boolean hasSealedC() {
        return cSealed;
    }

    @Override
    public byte[][] sealedC(Part part) {
        return cSealed ? SealedLevelFile.read(dir.resolve("c.sealed"), part, cParams.n()) : null;
    }

    @Override
    public byte[] sealedC(Part part, int index) {
        return SealedLevelFile.read(dir.resolve("c.sealed"), part, cParams.n(), index);
    }

    @Override
    public void setSealedC(byte[][] x, byte[][] y) {
        SealedLevelFile.write(dir.resolve("c.sealed"), cParams.n(), x, y);
        cSealed = true;
    }

    /**
     * The freeze (docs/POR.md, "C's rebuild paced in the servers"): H's levels in memory spilled and everything forced,
     * the next C's sealed checksums written, then H's files renamed aside under the record (PacedWindowFiles) and a
     * fresh H begun: in a bucket H's objects stay where they are and the fresh H takes the window's generation.
     */
    @Override
    public void freezeH(long epoch, byte[][] nextX, byte[][] nextY) {
        freeze(epoch, nextX, nextY);
    }

    /** The freeze with {@code c.next.sealed} every position empty, and the record saying the client fills it. */
    @Override
    public void freezeHForClient(long epoch) {
        freeze(epoch, null, null);
    }

    private void freeze(long epoch, byte[][] nextX, byte[][] nextY) {
        if (windows.isOpen()) {
            throw new IllegalStateException("a paced C rebuild's window is open already");
        }
        try {
            spillMemoryLevels();
            force();
            int memoryLevels = hVectors.memoryLevels();
            windows.freeze(epoch, nextX, nextY, hVectors, hSealed);
            hVectors = new SmallLevelsInMemory(vectors(dir, objects, hPrefix(new PacedWindowFiles.State(epoch,
                    PacedWindowFiles.OPEN), generations), hParams, hVectors.width(), vectorOrder,
                    DeamortizedLog.SLOTS), hParams, memoryLevels);
            hSealed = new SealedHFiles(dir, hParams, memoryLevels);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot freeze H in " + dir, e);
        }
    }

    /** Kept already: U's vector copy at its first change in the window holds its sealed checksum (window.copies). */
    @Override
    public void keepSealedUAside(int index) {
        if (!clientPartWindow().copies().has(index)) {
            throw new IllegalStateException("U's sealed checksum of " + index + " is kept with its vector's copy");
        }
    }

    /** The one kept with U's vector copy where the window changed the index; U's own otherwise. */
    @Override
    public byte[] snapshotSealedU(int index) {
        PacedWindowFiles.Copies copies = clientPartWindow().copies();
        return copies.has(index) ? copies.sealed(index) : uSealed(index);
    }

    /** Written at their positions of {@code c.next.sealed} and forced before it returns. */
    @Override
    public void setNextSealedC(int from, byte[][] x, byte[][] y) {
        clientPartWindow().nextSealed().set(from, x, y);
    }

    @Override
    public boolean nextSealedComplete() {
        NextSealedFile next = windows.open().nextSealed();
        return next == null || next.missing() == 0;
    }

    @Override
    public boolean windowTakesClientPart() {
        return windows.isOpen() && windows.open().nextSealed() != null;
    }

    /** Positions of the next C still without the client's sealed checksums, for tests. */
    int nextSealedMissing() {
        return clientPartWindow().nextSealed().missing();
    }

    private PacedWindowFiles clientPartWindow() {
        PacedWindowFiles w = windows.open();
        if (w.nextSealed() == null) {
            throw new IllegalStateException("the window's next C has its sealed checksums from the epoch's end");
        }
        return w;
    }

    /** The epoch of the open window, or -1 outside one. */
    public long windowEpoch() {
        return windows.epoch();
    }

    @Override
    public LevelStore frozenHVectors() {
        return windows.open().frozenH();
    }

    @Override
    public byte[] frozenSealedH(int level, Part part, int position) {
        return windows.open().frozenSealed().get(level, part, position);
    }

    @Override
    public SlicedRecovery.SliceReader frozenHSlices() {
        return windows.open().frozenH()::readSlice;
    }

    @Override
    public LevelStore nextCVectors() {
        return windows.open().nextC();
    }

    @Override
    public CopyOnWriteSnapshot.Aside copies() {
        return windows.open().copies();
    }

    /**
     * The switch: the next C forced, then renamed over C with {@code c.next.sealed} (the client's sealed checksums, kept
     * at the freeze) under the record, and the window's files deleted; in a bucket the record of generations names the
     * window's as C's and the former one's objects are deleted a share per H add ({@link #afterAdd}).
     */
    @Override
    public void switchC() {
        try {
            windows.switchC(cVectors);
            cVectors = vectors(dir, objects, cPrefix(generations), cParams, blockWidth, vectorOrder, 1);
            cSealed = true;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot switch to the next C in " + dir, e);
        }
    }

    /** After an H add: the window's or a former window's share of work ({@link DirectoryWindow#afterAdd}). */
    @Override
    public void afterAdd() {
        windows.afterAdd();
    }

    /** Whether a former generation's objects are being deleted a share per add (never with files), for tests. */
    boolean retiredDeletesPaced() {
        return windows.retiredDeletesPaced();
    }

    /**
     * Ends the window without a switch (also a former window's files left by a crash); in a bucket C takes the
     * window's generation, where the caller rebuilds it in full.
     */
    @Override
    public void dropWindow() {
        try {
            windows.drop();
            if (generations != null) {
                cVectors.close();
                cVectors = vectors(dir, objects, cPrefix(generations), cParams, blockWidth, vectorOrder, 1);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot end the paced C rebuild's window in " + dir, e);
        }
    }

    /**
     * Writes U's pending writes to u.blocks and u.sealed, then forces everything written since the last force to disk.
     * The caller has forced the journal records of those writes first.
     */
    public void force() throws IOException {
        writePendingU();
        hVectors.force();
        hSealed.force();
        cVectors.force();
        u.force();
    }

    /**
     * Writes U's pending writes to u.blocks and u.sealed without forcing them (the next {@link #force} does). The
     * caller has forced the journal records of those writes first, so a crash before that force is redone by the
     * replay.
     */
    public void writePendingU() {
        if (u.holding()) {
            windows.beforeUWrites(); // U's old vectors on disk before the writes that replace them
        }
        u.writeHeld();
        tree.flush(); // a cache: the order against the journal does not matter, and it is never forced
    }

    @Override
    public void close() throws IOException {
        try (HeldU held = u; VectorStore h = hVectors; SealedHFiles hs = hSealed; VectorStore c = cVectors;
                FileMerkleTree t = tree; DirectoryWindow w = windows) {
            // closes them all (the tree is null when the storage failed to open)
        }
    }

    /** Rebuilds {@code u.merkle} from {@code u.sealed}: one sequential pass, O(n) hashing. */
    private void rebuildTree() throws IOException {
        tree = FileMerkleTree.build(dir.resolve("u.merkle"), cParams.n(), (from, count, into) -> {
            for (byte[] sealed : uSealedAll(IntStream.range(from, from + count).toArray())) {
                into.put(sealed == null ? MerkleHash.EMPTY_LEAF : MerkleHash.leaf(sealed));
            }
        });
    }
}

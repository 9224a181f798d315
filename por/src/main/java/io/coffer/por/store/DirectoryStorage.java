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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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
 * U's blocks and the code vectors may be objects of a bucket instead ({@link BlobUBlocks}, {@link BlobLevelStore}).
 * Files grow as they are written (sparse where never written). Which of H's vectors are current is not stored here:
 * it follows from the log state (its runs); whether C has checksums the owner restores with
 * {@link #resetSealedPresence}. The Merkle tree is {@code u.merkle} ({@link FileMerkleTree}), rebuilt from
 * {@code u.sealed} at every open and written with U's pending writes. Writes reach the disk at {@link #force}. Within a
 * memory budget (none by default: {@link SmallLevelsInMemory#defaultBudget}) H's smallest levels, vectors and sealed
 * checksums, are kept in memory only.
 */
public final class DirectoryStorage implements WindowStorage, AutoCloseable {
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;
    /** A record of u.sealed: block present (1), checksum present (1), the sealed checksum. */
    static final int U_RECORD = 2 + SEALED;

    private final Path dir;
    private final int blockBytes;
    private final int batchExponent;
    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final UBlocks uBlocks;
    private final FileChannel uSealed;
    private FileMerkleTree tree;
    private SmallLevelsInMemory hVectors;
    private VectorStore cVectors;
    private SealedHFiles hSealed;
    /** Where the vectors are files (not a bucket's objects): only then does C's rebuild have a paced window. */
    private final boolean vectorsInFiles;
    private final ByteOrder vectorOrder;
    private final int blockWidth;
    /** A paced C rebuild's open window (docs/POR.md), null outside one. */
    private PacedWindowFiles window;
    /** The parameters file to mark once H is emptied, while H is in the amortised layout; else null. */
    private Path layoutToMark;
    private boolean cSealed;
    private boolean dirty;
    /**
     * U's writes since the last {@link #force}, by index: the block (null: unchanged) and the whole u.sealed record.
     * They reach u.blocks and u.sealed only in {@link #force}, which the journaled server calls once their journal
     * records are on disk (write-behind: a write that does not end a batch is not forced on its own, and its file
     * changes must not reach the disk before its record). The writes since the journal was last forced: at most
     * the batches between two checkpoints and the pending one.
     */
    private final Map<Integer, PendingU> pendingU = new HashMap<>();

    /** A write of U not yet in the files. */
    private static final class PendingU {
        byte[] block;
        final byte[] record;

        PendingU(byte[] record) {
            this.record = record;
        }
    }

    private DirectoryStorage(Path dir, int k, int batchExponent, int blockBytes, UBlocks uBlocks,
            FileChannel uSealed, SmallLevelsInMemory hVectors, VectorStore cVectors, boolean vectorsInFiles,
            ByteOrder vectorOrder, int blockWidth) {
        this.vectorsInFiles = vectorsInFiles;
        this.vectorOrder = vectorOrder;
        this.blockWidth = blockWidth;
        this.dir = dir;
        this.blockBytes = blockBytes;
        this.batchExponent = batchExponent;
        this.cParams = new CodeParameters(k);
        this.hParams = new CodeParameters(k - batchExponent);
        this.uBlocks = uBlocks;
        this.uSealed = uSealed;
        this.hVectors = hVectors;
        this.cVectors = cVectors;
        this.hSealed = new SealedHFiles(dir, hParams, hVectors.memoryLevels());
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
        PacedWindowFiles.State windowState = objects == null ? PacedWindowFiles.complete(dir) : null;
        CodeParameters cParams = new CodeParameters(k);
        CodeParameters hParams = new CodeParameters(k - batchExponent);
        UBlocks blocks = objects == null ? new FileUBlocks(dir.resolve("u.blocks"), blockBytes)
                : new BlobUBlocks(objects, "", blockBytes);
        FileChannel sealed;
        try {
            sealed = FileChannel.open(dir.resolve("u.sealed"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            blocks.close();
            throw e;
        }
        int hWidth = blockWidth << batchExponent;
        int slots = DeamortizedLog.SLOTS;
        VectorStore hFiles = objects == null ? new FileLevelStore(dir, "h", hParams, hWidth, vectorOrder, slots)
                : new BlobLevelStore(objects, "h", hParams, hWidth, vectorOrder, slots);
        SmallLevelsInMemory h = new SmallLevelsInMemory(hFiles, hParams,
                SmallLevelsInMemory.memoryLevels(hParams, hWidth, slots, memoryBudget));
        VectorStore c = objects == null ? new FileLevelStore(dir, "c", cParams, blockWidth, vectorOrder)
                : new BlobLevelStore(objects, "c", cParams, blockWidth, vectorOrder);
        DirectoryStorage storage = new DirectoryStorage(dir, k, batchExponent, blockBytes, blocks, sealed, h, c,
                objects == null, vectorOrder, blockWidth);
        try {
            if (windowState != null) {
                storage.window = PacedWindowFiles.open(dir, windowState.epoch(), cParams, hParams, blockWidth, hWidth,
                        vectorOrder);
            }
            storage.rebuildTree();
        } catch (IOException | RuntimeException e) {
            storage.close();
            throw e;
        }
        return storage;
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
        byte[] record = record(index);
        PendingU p = pendingU.get(index);
        boolean blockThere = p != null && p.block != null || uBlocks.present(index);
        return record[1] == 1 && (record[0] != 1 || !blockThere);
    }

    /** Whether {@code u.sealed}, where every block and checksum stored is marked, was never written. */
    @Override
    public boolean uEmpty() {
        try {
            return pendingU.isEmpty() && uSealed.size() == 0;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read u.sealed", e);
        }
    }

    @Override
    public void setU(int index, byte[] block) {
        if (block != null) {
            if (block.length != blockBytes) {
                throw new IllegalArgumentException("block of " + block.length + " bytes, expected " + blockBytes);
            }
        }
        PendingU p = pending(index);
        p.block = block; // the caller no longer changes it (PorStorage.setU): the server hands over a copy
        p.record[0] = (byte) (block == null ? 0 : 1);
    }

    @Override
    public byte[] uSealed(int index) {
        return uSealedAll(new int[] {index})[0];
    }

    @Override
    public void setUSealed(int index, byte[] sealedChecksum) {
        if (sealedChecksum.length != SEALED) {
            throw new IllegalArgumentException("a sealed checksum is " + SEALED + " bytes");
        }
        PendingU p = pending(index);
        p.record[1] = 1;
        System.arraycopy(sealedChecksum, 0, p.record, 2, SEALED);
        tree.set(index, MerkleHash.leaf(sealedChecksum)); // the tree file is a cache, rebuilt from u.sealed at open
    }

    private PendingU pending(int index) {
        PendingU p = pendingU.get(index);
        if (p == null) {
            p = new PendingU(record(index));
            pendingU.put(index, p);
        }
        return p;
    }

    @Override
    public MerkleProof proof(int index) {
        return tree.proof(index);
    }

    /** Fresh arrays; a run of adjacent blocks is one read of u.blocks, and their records one of u.sealed. */
    @Override
    public byte[][] uBlocks(int[] indices) {
        byte[][] records = records(indices);
        byte[][] out = new byte[indices.length][];
        AdjacentRuns.forEach(indices, (start, count) -> {
            byte[][] run = null;
            for (int i = start; i < start + count; i++) {
                PendingU p = pendingU.get(indices[i]);
                if (records[i][0] == 1 && p != null && p.block != null) {
                    out[i] = p.block.clone();
                } else if (records[i][0] == 1) { // else never written: null, as u() gives
                    run = run == null ? uBlocks.readRun(indices[start], count) : run;
                    out[i] = run[i - start];
                }
            }
        });
        return out;
    }

    @Override
    public byte[][] uSealedAll(int[] indices) {
        byte[][] records = records(indices);
        byte[][] out = new byte[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            out[i] = records[i][1] == 1 ? Arrays.copyOfRange(records[i], 2, 2 + SEALED) : null;
        }
        return out;
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

    @Override
    public boolean keepsWindow() {
        return vectorsInFiles;
    }

    /**
     * The freeze (docs/POR.md, "C's rebuild paced in the servers"): H's levels in memory spilled and everything forced,
     * the next C's sealed checksums written, then H's files renamed aside under the record (PacedWindowFiles) and a
     * fresh H begun.
     */
    @Override
    public void freezeH(long epoch, byte[][] nextX, byte[][] nextY) {
        if (!vectorsInFiles || window != null) {
            throw new IllegalStateException(window != null ? "a paced C rebuild's window is open already"
                    : "no paced C rebuild with the vectors in a bucket");
        }
        try {
            spillMemoryLevels();
            force();
            int memoryLevels = hVectors.memoryLevels();
            int hWidth = hVectors.width();
            PacedWindowFiles.freeze(dir, epoch, cParams.n(), nextX, nextY, hVectors, hSealed);
            hVectors = new SmallLevelsInMemory(new FileLevelStore(dir, "h", hParams, hWidth, vectorOrder,
                    DeamortizedLog.SLOTS), hParams, memoryLevels);
            hSealed = new SealedHFiles(dir, hParams, memoryLevels);
            window = PacedWindowFiles.open(dir, epoch, cParams, hParams, blockWidth, hWidth, vectorOrder);
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot freeze H in " + dir, e);
        }
    }

    /** The epoch of the open window, or -1 outside one. */
    public long windowEpoch() {
        return window == null ? -1 : window.epoch();
    }

    @Override
    public LevelStore frozenHVectors() {
        return open().frozenH();
    }

    @Override
    public byte[] frozenSealedH(int level, Part part, int position) {
        return open().frozenSealed().get(level, part, position);
    }

    @Override
    public SlicedRecovery.SliceReader frozenHSlices() {
        return open().frozenH()::readSlice;
    }

    @Override
    public LevelStore nextCVectors() {
        return open().nextC();
    }

    @Override
    public CopyOnWriteSnapshot.Aside copies() {
        return open().copies();
    }

    /**
     * The switch: the next C forced, then renamed over C with {@code c.next.sealed} (the client's sealed checksums, kept
     * at the freeze) under the record, and the window's files deleted.
     */
    @Override
    public void switchC() {
        PacedWindowFiles w = open();
        try {
            w.nextC().force();
            PacedWindowFiles.write(dir, w.epoch(), PacedWindowFiles.SWITCHING);
            window = null;
            w.close();
            cVectors.close();
            PacedWindowFiles.complete(dir);
            cVectors = new FileLevelStore(dir, "c", cParams, blockWidth, vectorOrder);
            cSealed = true;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot switch to the next C in " + dir, e);
        }
    }

    /** Ends the window without a switch (also a former window's files left by a crash). */
    @Override
    public void dropWindow() {
        try (PacedWindowFiles w = window) {
            window = null;
            if (vectorsInFiles) {
                PacedWindowFiles.drop(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot end the paced C rebuild's window in " + dir, e);
        }
    }

    private PacedWindowFiles open() {
        if (window == null) {
            throw new IllegalStateException("no paced C rebuild is in its window");
        }
        return window;
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
        if (dirty) {
            uBlocks.force();
            uSealed.force(false);
            dirty = false;
        }
    }

    /**
     * Writes U's pending writes to u.blocks and u.sealed without forcing them (the next {@link #force} does). The
     * caller has forced the journal records of those writes first, so a crash before that force is redone by the
     * replay.
     */
    public void writePendingU() {
        if (window != null && !pendingU.isEmpty()) {
            try {
                window.forceCopies(); // U's old vectors on disk before the writes that replace them
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot force " + PacedWindowFiles.COPIES, e);
            }
        }
        for (Map.Entry<Integer, PendingU> e : pendingU.entrySet()) {
            long at = (long) e.getKey() * U_RECORD;
            if (e.getValue().block != null) {
                uBlocks.write(e.getKey(), e.getValue().block);
            }
            PositionalIo.writeFully(uSealed, ByteBuffer.wrap(e.getValue().record), at, "u.sealed");
            dirty = true;
        }
        pendingU.clear();
        tree.flush(); // a cache: the order against the journal does not matter, and it is never forced
    }

    @Override
    public void close() throws IOException {
        try (UBlocks u = uBlocks; uSealed; VectorStore h = hVectors; SealedHFiles hs = hSealed;
                VectorStore c = cVectors; FileMerkleTree t = tree; PacedWindowFiles w = window) {
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

    private byte[] record(int index) {
        return records(new int[] {index})[0];
    }

    /** {@link #record} of each of {@code indices}: a run of adjacent ones with one read. */
    private byte[][] records(int[] indices) {
        byte[][] out = new byte[indices.length][];
        AdjacentRuns.forEach(indices, (start, count) -> {
            if (indices[start] < 0 || indices[start + count - 1] >= cParams.n()) {
                throw new IllegalArgumentException("block index " + (indices[start] < 0 ? indices[start]
                        : indices[start + count - 1]) + " outside [0, " + cParams.n() + ")");
            }
            ByteBuffer b = ByteBuffer.allocate(count * U_RECORD);
            PositionalIo.readFully(uSealed, b, (long) indices[start] * U_RECORD, "u.sealed"); // zeros past the end: never written
            for (int i = start; i < start + count; i++) {
                PendingU p = pendingU.get(indices[i]);
                int at = (i - start) * U_RECORD;
                out[i] = p != null ? p.record.clone() : Arrays.copyOfRange(b.array(), at, at + U_RECORD);
            }
        });
        return out;
    }
}

package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * U in a server's directory ({@link DirectoryStorage}): its blocks ({@link UBlocks}: {@code u.blocks} or a bucket's
 * objects) and {@code u.sealed}, per block a record of (block present, checksum present, sealed checksum), with U's
 * writes held in memory until {@link #writeHeld}. The journaled server writes them only once their journal records are
 * on disk (write-behind: a write that does not end a batch is not forced on its own, and its file changes must not
 * reach the disk before its record). The writes held: at most the batches between two checkpoints and the pending one.
 */
final class HeldU implements AutoCloseable {
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;

    private final UBlocks blocks;
    private final FileChannel sealed;
    private final int n;
    private final int blockBytes;
    private final Map<Integer, Held> held = new HashMap<>();
    private boolean dirty;

    /** A write of U not yet in the files: the block (null: unchanged) and the whole u.sealed record. */
    private static final class Held {
        byte[] block;
        final byte[] record;

        Held(byte[] record) {
            this.record = record;
        }
    }

    private HeldU(UBlocks blocks, FileChannel sealed, int n, int blockBytes) {
        this.blocks = blocks;
        this.sealed = sealed;
        this.n = n;
        this.blockBytes = blockBytes;
    }

    /** Opens {@code u.sealed} in {@code dir} over {@code blocks} (closed here if that fails). */
    static HeldU open(Path dir, UBlocks blocks, int n, int blockBytes) throws IOException {
        try {
            return new HeldU(blocks, FileChannel.open(dir.resolve("u.sealed"), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), n, blockBytes);
        } catch (IOException | RuntimeException e) {
            blocks.close();
            throw e;
        }
    }

    /** Written (its checksum is there) and its block is not: marked lost, or gone from the bucket. */
    boolean lost(int index) {
        byte[] record = records(new int[] {index})[0];
        Held h = held.get(index);
        boolean blockThere = h != null && h.block != null || blocks.present(index);
        return record[1] == 1 && (record[0] != 1 || !blockThere);
    }

    /** Whether {@code u.sealed}, where every block and checksum stored is marked, was never written. */
    boolean empty() {
        try {
            return held.isEmpty() && sealed.size() == 0;
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read u.sealed", e);
        }
    }

    /** Holds block {@code index} (null: lost), which the caller no longer changes. */
    void setBlock(int index, byte[] block) {
        if (block != null && block.length != blockBytes) {
            throw new IllegalArgumentException("block of " + block.length + " bytes, expected " + blockBytes);
        }
        Held h = held(index);
        h.block = block;
        h.record[0] = (byte) (block == null ? 0 : 1);
    }

    /** Holds the sealed checksum of block {@code index}. */
    void setSealed(int index, byte[] sealedChecksum) {
        if (sealedChecksum.length != SEALED) {
            throw new IllegalArgumentException("a sealed checksum is " + SEALED + " bytes");
        }
        Held h = held(index);
        h.record[1] = 1;
        System.arraycopy(sealedChecksum, 0, h.record, 2, SEALED);
    }

    private Held held(int index) {
        return held.computeIfAbsent(index, i -> new Held(records(new int[] {i})[0]));
    }

    /** Fresh arrays; a run of adjacent blocks is one read of U's blocks, and their records one of u.sealed. */
    byte[][] blocks(int[] indices) {
        byte[][] records = records(indices);
        byte[][] out = new byte[indices.length][];
        AdjacentRuns.forEach(indices, (start, count) -> {
            byte[][] run = null;
            for (int i = start; i < start + count; i++) {
                Held h = held.get(indices[i]);
                if (records[i][0] == 1 && h != null && h.block != null) {
                    out[i] = h.block.clone();
                } else if (records[i][0] == 1) { // else never written: null
                    run = run == null ? blocks.readRun(indices[start], count) : run;
                    out[i] = run[i - start];
                }
            }
        });
        return out;
    }

    /** The sealed checksums of {@code indices}, null where none. */
    byte[][] sealed(int[] indices) {
        byte[][] records = records(indices);
        byte[][] out = new byte[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            out[i] = records[i][1] == 1 ? Arrays.copyOfRange(records[i], 2, 2 + SEALED) : null;
        }
        return out;
    }

    /** Whether writes are held. */
    boolean holding() {
        return !held.isEmpty();
    }

    /** Writes the held writes to U's blocks and u.sealed without forcing them ({@link #force} does). */
    void writeHeld() {
        for (Map.Entry<Integer, Held> e : held.entrySet()) {
            if (e.getValue().block != null) {
                blocks.write(e.getKey(), e.getValue().block);
            }
            PositionalIo.writeFully(sealed, ByteBuffer.wrap(e.getValue().record),
                    (long) e.getKey() * DirectoryStorage.U_RECORD, "u.sealed");
            dirty = true;
        }
        held.clear();
    }

    /** Forces what {@link #writeHeld} wrote. */
    void force() throws IOException {
        if (dirty) {
            blocks.force();
            sealed.force(false);
            dirty = false;
        }
    }

    @Override
    public void close() throws IOException {
        try (UBlocks b = blocks; FileChannel s = sealed) {
            // closes both
        }
    }

    /** The u.sealed record of each of {@code indices} (a held one first): a run of adjacent ones with one read. */
    private byte[][] records(int[] indices) {
        byte[][] out = new byte[indices.length][];
        AdjacentRuns.forEach(indices, (start, count) -> {
            if (indices[start] < 0 || indices[start + count - 1] >= n) {
                throw new IllegalArgumentException("block index " + (indices[start] < 0 ? indices[start]
                        : indices[start + count - 1]) + " outside [0, " + n + ")");
            }
            ByteBuffer b = ByteBuffer.allocate(count * DirectoryStorage.U_RECORD);
            // zeros past the end: never written
            PositionalIo.readFully(sealed, b, (long) indices[start] * DirectoryStorage.U_RECORD, "u.sealed");
            for (int i = start; i < start + count; i++) {
                Held h = held.get(indices[i]);
                int at = (i - start) * DirectoryStorage.U_RECORD;
                out[i] = h != null ? h.record.clone()
                        : Arrays.copyOfRange(b.array(), at, at + DirectoryStorage.U_RECORD);
            }
        });
        return out;
    }
}

package io.coffer.por.blob;

import io.coffer.por.client.PorClient;
import io.coffer.sdk.blob.BlobContent;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The write path of a {@link PorBlobStore}: a pack's header and content cut into blocks of U and written through the
 * PoR client, and freed blocks written as zero (appendix A.3). The caller holds the store's lock.
 */
final class PackWriter {
    private final PorClient client;
    private final StateKeeper state;
    private final int blockBytes;

    PackWriter(PorClient client, StateKeeper state, int blockBytes) {
        this.client = client;
        this.state = state;
        this.blockBytes = blockBytes;
    }

    /**
     * Reads a pack's content into its blocks, laid out after a header of {@code headerBytes} bytes (left zero), and
     * takes the checksums of every block the header does not reach ({@link PorClient#prepare}, for the batch slot it
     * takes when the pack's write starts a batch, as every write after a flush does). Needs no lock: the engine's
     * uploads run this for one pack while another pack is written. The caller bounds the memory it takes (a copy of
     * the pack). Returns null where the content does not fit {@code count} blocks, which
     * {@link #writeBlocks(String, BlobContent, PackHeader)} then reports.
     */
    Prepared prepare(String name, BlobContent content, int count, int headerBytes) throws IOException {
        long total = headerBytes + content.length();
        if (total > (long) count * blockBytes) {
            return null;
        }
        byte[][] blocks = new byte[count][blockBytes];
        try (InputStream data = content.open()) {
            for (int j = 0; j < count; j++) {
                int from = (int) Math.max(0, Math.min(blockBytes, headerBytes - (long) j * blockBytes));
                int to = (int) Math.min(blockBytes, total - (long) j * blockBytes);
                if (to > from && data.readNBytes(blocks[j], from, to - from) != to - from) {
                    throw new EOFException("blob " + name + " declared " + content.length()
                            + " bytes, its content ended early");
                }
            }
            if (data.read() >= 0) {
                throw new IOException("blob " + name + " has more than the " + content.length() + " bytes declared");
            }
        }
        PorClient.Prepared[] sums = new PorClient.Prepared[count];
        for (int j = (headerBytes + blockBytes - 1) / blockBytes; j < count; j++) {
            sums[j] = client.prepare(blocks[j], j % client.batchSlots());
        }
        return new Prepared(headerBytes, blocks, sums);
    }

    /** A pack's blocks, the header's bytes still zero, and the checksums {@link #prepare} took (null: not taken). */
    record Prepared(int headerBytes, byte[][] blocks, PorClient.Prepared[] sums) {}

    /** Writes the header into a prepared pack's first blocks and the blocks into U, then flushes them into H. */
    void writeBlocks(String name, Prepared pack, PackHeader header) throws IOException {
        byte[] head = header.encode();
        if (head.length != pack.headerBytes() || pack.blocks().length != header.blocks().length) {
            throw new IllegalArgumentException("pack " + name + " was prepared for another header");
        }
        for (int at = 0; at < head.length; at += blockBytes) {
            System.arraycopy(head, at, pack.blocks()[at / blockBytes], 0, Math.min(blockBytes, head.length - at));
        }
        write(name, header.blocks(), j -> pack.blocks()[j], pack.sums(), () -> { }, false);
    }

    /**
     * Writes a pack that moves ({@link Consolidation}): header and {@code content} into the header's blocks, the first
     * block (the header's start) last, so a header that U holds is always one whose blocks are all written; then
     * flushes them into H.
     */
    void writeHeaderLast(String name, byte[] content, PackHeader header) throws IOException {
        byte[] head = header.encode();
        write(name, header.blocks(), j -> {
            byte[] block = new byte[blockBytes];
            long at = (long) j * blockBytes;
            for (int i = 0; i < blockBytes; i++, at++) {
                block[i] = at < head.length ? head[(int) at]
                        : at - head.length < content.length ? content[(int) (at - head.length)] : 0;
            }
            return block;
        }, new PorClient.Prepared[header.blocks().length], () -> { }, true);
    }

    /** Writes header and content into the header's blocks, read as they are written, and flushes them into H. */
    void writeBlocks(String name, BlobContent content, PackHeader header) throws IOException {
        long total = header.bytes() + header.length();
        try (InputStream data = content.open();
             InputStream stream = new SequenceInputStream(new ByteArrayInputStream(header.encode()), data)) {
            write(name, header.blocks(), j -> {
                byte[] block = new byte[blockBytes];
                int want = (int) Math.min(blockBytes, total - (long) j * blockBytes);
                if (stream.readNBytes(block, 0, want) != want) {
                    throw new EOFException("blob " + name + " declared " + header.length()
                            + " bytes, its content ended early");
                }
                return block;
            }, new PorClient.Prepared[header.blocks().length], () -> {
                if (stream.read() >= 0) {
                    throw new IOException("blob " + name + " has more than the " + header.length()
                            + " bytes declared");
                }
            }, false);
        }
    }

    /** Block {@code j} of a pack, header and content. */
    @FunctionalInterface
    private interface BlockSource {
        byte[] block(int j) throws IOException;
    }

    /** Checks that the content ended where declared. */
    @FunctionalInterface
    private interface EndCheck {
        void check() throws IOException;
    }

    /**
     * Writes every block (with its prepared checksums where {@code sums} has them) and flushes them into H; on failure
     * zeroes the blocks whose write was started; where that fails too, the store resynchronises before its next
     * change ({@link StateKeeper#changeFailed}).
     */
    private void write(String name, int[] blocks, BlockSource source, PorClient.Prepared[] sums, EndCheck end,
            boolean headerLast) throws IOException {
        int[] started = new int[blocks.length];
        int count = 0;
        try {
            client.prefetchPaths(indices(blocks)); // one request for the pack's paths, not one per block
            for (int s = 0; s < blocks.length; s++) {
                int j = headerLast ? blocks.length - 1 - s : s;
                byte[] block = source.block(j);
                started[count++] = blocks[j];
                if (sums[j] != null) {
                    client.write(blocks[j], sums[j]);
                } else {
                    client.write(blocks[j], block);
                }
            }
            end.check();
            client.flush();
        } catch (IOException | RuntimeException e) {
            try {
                zero(Arrays.copyOf(started, count));
                state.changeUndone(); // e.g. the content's stream broke: no resync before the next change
            } catch (IOException | RuntimeException again) {
                e.addSuppressed(again); // the server may be ahead (a write whose answer was lost)
            }
            state.persistState();
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("PoR write of " + name + " failed: " + e.getMessage(), e);
        } finally {
            client.forgetPaths();
        }
    }

    /** Writes zero blocks at {@code indices} (a delete, appendix A.3) and flushes them into H. */
    void zero(int[] indices) throws IOException {
        try {
            client.prefetchPaths(indices(indices));
            for (int index : indices) {
                client.write(index, new byte[blockBytes]);
            }
            client.flush();
        } catch (RuntimeException e) {
            throw new IOException("PoR store could not zero freed blocks: " + e.getMessage(), e);
        } finally {
            client.forgetPaths();
        }
    }

    private static List<Integer> indices(int[] blocks) {
        List<Integer> list = new ArrayList<>(blocks.length);
        for (int b : blocks) {
            list.add(b);
        }
        return list;
    }
}

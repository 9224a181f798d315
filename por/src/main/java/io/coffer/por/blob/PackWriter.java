package io.coffer.por.blob;

import io.coffer.por.client.PorClient;
import io.coffer.por.field.Segments;
import io.coffer.sdk.blob.BlobContent;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The write path of a {@link PorBlobStore}: a pack's header and content cut into blocks of U and written through the
 * PoR client, and freed blocks written as zero (appendix A.3). {@link #stage} reads the content and prepares its
 * blocks (elements and checksum under M: a third of the client's CPU per block) before the store's lock is taken, so
 * concurrent uploads do that part in parallel; the rest runs under the lock.
 */
final class PackWriter {
    /** What {@link #stage} holds per pack at most (blocks and their elements): an 8 MiB pack of 64 KiB blocks fits. */
    static final int STAGED_BYTES = 24 << 20;

    private final PorClient client;
    private final StateKeeper state;
    private final int blockBytes;
    private final int maxStaged;

    PackWriter(PorClient client, StateKeeper state, int blockBytes) {
        this.client = client;
        this.state = state;
        this.blockBytes = blockBytes;
        this.maxStaged = Math.max(1, STAGED_BYTES / (blockBytes + Integer.BYTES * (Segments.count(blockBytes) + 1)));
    }

    /**
     * A pack's content read ahead of the lock: the bytes that share blocks with the header ({@code lead}), then
     * whole blocks prepared ({@code ready}, block {@code headerBlocks} on), then the rest still in {@code data}.
     */
    static final class Staged implements Closeable {
        private final InputStream data;
        private final byte[] lead;
        private final int headerBlocks;
        private final List<PorClient.Prepared> ready;

        private Staged(InputStream data, byte[] lead, int headerBlocks, List<PorClient.Prepared> ready) {
            this.data = data;
            this.lead = lead;
            this.headerBlocks = headerBlocks;
            this.ready = ready;
        }

        @Override
        public void close() throws IOException {
            data.close();
        }
    }

    /**
     * Reads the content of a pack of {@code count} blocks (header included) and prepares up to {@link #STAGED_BYTES}
     * of its blocks that hold no header bytes. Needs no lock; the caller closes the result.
     */
    Staged stage(String name, BlobContent content, long length, int count) throws IOException {
        long headerBytes = PackHeader.length(name.length(), count);
        int headerBlocks = (int) ((headerBytes + blockBytes - 1) / blockBytes);
        long total = headerBytes + length;
        InputStream data = content.open();
        try {
            byte[] lead = new byte[(int) Math.min(length, (long) headerBlocks * blockBytes - headerBytes)];
            readFully(data, lead, lead.length, name, length);
            List<PorClient.Prepared> ready = new ArrayList<>();
            for (int j = headerBlocks; j < count && ready.size() < maxStaged; j++) {
                byte[] block = new byte[blockBytes];
                readFully(data, block, (int) Math.min(blockBytes, total - (long) j * blockBytes), name, length);
                ready.add(client.prepare(block));
            }
            return new Staged(data, lead, headerBlocks, ready);
        } catch (IOException | RuntimeException e) {
            try {
                data.close();
            } catch (IOException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
    }

    private static void readFully(InputStream in, byte[] into, int want, String name, long length)
            throws IOException {
        if (in.readNBytes(into, 0, want) != want) {
            throw new EOFException("blob " + name + " declared " + length + " bytes, its content ended early");
        }
    }

    /**
     * Writes header and staged content into the header's blocks and flushes them into H; on failure zeroes them
     * again. The caller holds the lock.
     */
    void writeBlocks(String name, Staged staged, PackHeader header) throws IOException {
        int[] blocks = header.blocks();
        long total = header.bytes() + header.length();
        int started = 0;
        InputStream stream = new SequenceInputStream(new SequenceInputStream(
                new ByteArrayInputStream(header.encode()), new ByteArrayInputStream(staged.lead)), staged.data);
        try {
            for (int j = 0; j < blocks.length; j++) {
                int r = j - staged.headerBlocks;
                if (r >= 0 && r < staged.ready.size()) {
                    started = j + 1;
                    client.write(blocks[j], staged.ready.get(r));
                    staged.ready.set(r, null); // written: its memory may go
                    continue;
                }
                byte[] block = new byte[blockBytes];
                readFully(stream, block, (int) Math.min(blockBytes, total - (long) j * blockBytes), name,
                        header.length());
                started = j + 1;
                client.write(blocks[j], block);
            }
            if (stream.read() >= 0) {
                throw new IOException("blob " + name + " has more than the " + header.length() + " bytes declared");
            }
            client.flush();
        } catch (IOException | RuntimeException e) {
            try {
                zero(Arrays.copyOf(blocks, started));
            } catch (IOException | RuntimeException again) {
                e.addSuppressed(again);
            }
            state.persistState();
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("PoR write of " + name + " failed: " + e.getMessage(), e);
        }
    }

    /** Writes zero blocks at {@code indices} (a delete, appendix A.3) and flushes them into H. */
    void zero(int[] indices) throws IOException {
        try {
            for (int index : indices) {
                client.write(index, new byte[blockBytes]);
            }
            client.flush();
        } catch (RuntimeException e) {
            throw new IOException("PoR store could not zero freed blocks: " + e.getMessage(), e);
        }
    }
}

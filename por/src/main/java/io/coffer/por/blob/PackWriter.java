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

    /** Writes header and content into the header's blocks and flushes them into H; on failure zeroes them again. */
    void writeBlocks(String name, BlobContent content, PackHeader header) throws IOException {
        int[] blocks = header.blocks();
        long total = header.bytes() + header.length();
        int started = 0;
        try (InputStream data = content.open();
             InputStream stream = new SequenceInputStream(new ByteArrayInputStream(header.encode()), data)) {
            client.prefetchPaths(indices(blocks)); // one request for the pack's paths, not one per block
            for (int j = 0; j < blocks.length; j++) {
                byte[] block = new byte[blockBytes];
                int want = (int) Math.min(blockBytes, total - (long) j * blockBytes);
                if (stream.readNBytes(block, 0, want) != want) {
                    throw new EOFException("blob " + name + " declared " + header.length()
                            + " bytes, its content ended early");
                }
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

package io.coffer.por.blob;

import io.coffer.por.client.PorClient;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read path of a {@link PorBlobStore}: the blocks that cover a range of a pack are fetched under the store's lock
 * with the Merkle root of that moment ({@link #fetch}), and verified after the lock is released
 * ({@link Fetch#copyVerified}: a checksum over each whole block, nearly all of a read's CPU), so reads verify in
 * parallel. A block that fails is read again under the lock and repaired with the rest of its pack.
 */
final class PackReader {
    private final PorClient client;
    private final VerifiedBlocks blocks;
    private final ReentrantLock lock;
    private final int blockBytes;

    PackReader(PorClient client, VerifiedBlocks blocks, ReentrantLock lock, int blockBytes) {
        this.client = client;
        this.blocks = blocks;
        this.lock = lock;
        this.blockBytes = blockBytes;
    }

    /**
     * Fetches the blocks that cover content bytes [from, from + n) of {@code entry} with the Merkle root of now; the
     * caller holds the lock.
     */
    Fetch fetch(Entry entry, long from, int n) {
        int[] indices = entry.blocks();
        long pos = PackHeader.length(entry.name().length(), indices.length) + from;
        int first = (int) (pos / blockBytes);
        int last = n == 0 ? first - 1 : (int) ((pos + n - 1) / blockBytes);
        List<PorClient.Fetched> fetched = new ArrayList<>(Math.max(0, last - first + 1));
        for (int j = first; j <= last; j++) {
            PorClient.Fetched f;
            try {
                f = client.fetch(indices[j]);
            } catch (RuntimeException e) {
                f = null; // the server could not serve it: repaired like a block that fails its check
            }
            fetched.add(f);
        }
        return new Fetch(entry, (int) (pos - (long) first * blockBytes), n, first, fetched);
    }

    /** Blocks fetched for a range, to be checked and copied out without the lock. */
    final class Fetch {
        private final Entry entry;
        private final int within;
        private final int n;
        private final int first;
        private final List<PorClient.Fetched> fetched;

        private Fetch(Entry entry, int within, int n, int first, List<PorClient.Fetched> fetched) {
            this.entry = entry;
            this.within = within;
            this.n = n;
            this.first = first;
            this.fetched = fetched;
        }

        /**
         * Copies the range into {@code dst}, each block verified; one that fails is read again under the lock, where
         * it is repaired with the rest of its pack ({@link VerifiedBlocks#verified}).
         */
        void copyVerified(byte[] dst, int off) throws IOException {
            int at = within;
            int left = n;
            for (int i = 0; i < fetched.size(); i++) {
                byte[] block = checked(fetched.get(i));
                if (block == null) {
                    block = verifiedUnderLock(entry, first + i);
                }
                int take = Math.min(left, blockBytes - at);
                System.arraycopy(block, at, dst, off, take);
                off += take;
                left -= take;
                at = 0;
            }
        }
    }

    /** The fetched block verified, or null when it was not served or fails its check. */
    private byte[] checked(PorClient.Fetched fetched) {
        if (fetched == null) {
            return null;
        }
        try {
            return client.check(fetched);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Block {@code j} of {@code entry} read again under the lock; when it fails, every block of the pack is checked
     * and all that fail are repaired from C and H together, then the block is read again.
     */
    private byte[] verifiedUnderLock(Entry entry, int j) throws IOException {
        lock.lock();
        try {
            return blocks.verified(entry.name(), j, entry.blocks()[j], entry.blocks());
        } finally {
            lock.unlock();
        }
    }
}

package io.coffer.por.blob;

import io.coffer.por.client.PorClient;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read path of a {@link PorBlobStore}: the blocks that cover a range of a pack are fetched under the store's lock
 * with the Merkle root of that moment ({@link #fetch}), and verified after the lock is released
 * ({@link Fetch#copyVerified}: a checksum over each whole block, nearly all of a read's CPU), so reads verify in
 * parallel, and a read of several blocks verifies its later blocks on a {@link CheckPool} while its own thread checks
 * the first. A block that fails is read again under the lock and repaired with the rest of its pack.
 */
final class PackReader {
    private final PorClient client;
    private final BlockMapStore map;
    private final VerifiedBlocks blocks;
    private final ReentrantLock lock;
    private final int blockBytes;
    private final CheckPool checks;

    PackReader(PorClient client, BlockMapStore map, VerifiedBlocks blocks, ReentrantLock lock, int blockBytes,
            CheckPool checks) {
        this.client = client;
        this.map = map;
        this.blocks = blocks;
        this.lock = lock;
        this.blockBytes = blockBytes;
        this.checks = checks;
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
        int within = (int) (pos - (long) first * blockBytes);
        List<Integer> wanted = new ArrayList<>(Math.max(0, last - first + 1));
        for (int j = first; j <= last; j++) {
            wanted.add(indices[j]);
        }
        try {
            return new Fetch(entry, within, n, first, client.fetchAll(wanted));
        } catch (RuntimeException e) {
            // the server refused one of them (a lost block) or the answer was cut: fetch each alone below, so only
            // the blocks it cannot serve go to repair
        }
        List<PorClient.Fetched> fetched = new ArrayList<>(wanted.size());
        for (int j = first; j <= last; j++) {
            PorClient.Fetched f;
            try {
                f = client.fetch(indices[j]);
            } catch (RuntimeException e) {
                f = null; // the server could not serve it: repaired like a block that fails its check
            }
            fetched.add(f);
        }
        return new Fetch(entry, within, n, first, fetched);
    }

    /**
     * {@code entry} as the map holds it now (the lock held): itself, or the same pack where a consolidation moved it
     * ({@link PackVersions#samePack}); a pack replaced or deleted since is an IOException, so a read never mixes two
     * versions of a name.
     */
    Entry current(Entry entry) throws IOException {
        Entry now = map.entry(entry.name()).orElse(null);
        if (now == null || !PackVersions.samePack(now, entry)) {
            throw new IOException("blob " + entry.name() + " was replaced or deleted while being read");
        }
        return now;
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
         * Copies the range into {@code dst}, each block verified before any of its bytes is copied; one that fails is
         * read again under the lock, where it is repaired with the rest of its pack ({@link VerifiedBlocks#verified}).
         * Blocks after the first are offered to the check pool; this thread checks the block it needs next unless a
         * pool thread has started it, and while one has, it checks later blocks nobody has started instead of waiting.
         */
        void copyVerified(byte[] dst, int off) throws IOException {
            List<FutureTask<byte[]>> tasks = new ArrayList<>(fetched.size());
            for (PorClient.Fetched f : fetched) {
                tasks.add(new FutureTask<>(() -> checked(f)));
            }
            try {
                for (int i = 1; i < tasks.size(); i++) {
                    checks.offer(tasks.get(i));
                }
                int at = within;
                int left = n;
                for (int i = 0; i < tasks.size(); i++) {
                    byte[] block = await(tasks, i);
                    if (block == null) {
                        block = verifiedUnderLock(entry, first + i);
                    }
                    int take = Math.min(left, blockBytes - at);
                    System.arraycopy(block, at, dst, off, take);
                    off += take;
                    left -= take;
                    at = 0;
                }
            } finally {
                for (FutureTask<byte[]> task : tasks) {
                    task.cancel(false); // what a failure left unstarted is not checked in vain
                }
            }
        }
    }

    /**
     * The result of {@code tasks[i]}: run here if nobody has started it (a started or finished task's run returns at
     * once), and while another thread runs it, later tasks nobody has started are run here.
     */
    private static byte[] await(List<FutureTask<byte[]>> tasks, int i) throws IOException {
        FutureTask<byte[]> task = tasks.get(i);
        task.run();
        for (int j = i + 1; j < tasks.size() && !task.isDone(); j++) {
            tasks.get(j).run();
        }
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a PoR block was verified");
        } catch (ExecutionException e) {
            // checked() turns every RuntimeException into null: only an Error gets here
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IOException("PoR block check failed", e.getCause());
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
     * Block {@code j} of {@code entry} read again under the lock, where the map has the pack now (moved since the
     * fetch, it is read at its new index; replaced or deleted, the read fails rather than read, or repair, blocks that
     * are free or another pack's); when it fails, every block of the pack is checked and all that fail are repaired
     * from C and H together, then the block is read again.
     */
    private byte[] verifiedUnderLock(Entry entry, int j) throws IOException {
        lock.lock();
        try {
            Entry now = current(entry);
            return blocks.verified(now.name(), j, now.blocks()[j], now.blocks());
        } finally {
            lock.unlock();
        }
    }
}

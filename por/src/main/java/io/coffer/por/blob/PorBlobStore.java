package io.coffer.por.blob;

import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.client.ClientState;
import io.coffer.por.client.ClientStateFile;
import io.coffer.por.client.PorClient;
import io.coffer.por.client.Traffic;
import io.coffer.por.code.LogState;
import io.coffer.por.server.PorServer;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobNames;
import io.coffer.sdk.blob.BlobNotFoundException;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import io.coffer.sdk.meta.BlockMapStore.FreeBlocks;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BlobStore} that keeps the engine's packs (names under {@code p/}) in the PoR store's U, in blocks of the
 * server's block size, and passes every other blob (manifests, bucket records ...) to the inner store. Each pack is
 * the byte stream {@link PackHeader} || content cut into blocks that take free indices (freed ones first); once its
 * blocks are written (and flushed into H's code) one metadata transaction stores the map row and the client state.
 * Reads are verified (Merkle path and checksum); a block that fails is repaired from C and H and read again. A
 * delete writes the pack's blocks as zero (appendix A.3) and frees them.
 *
 * <p>One lock serialises every use of the {@link PorClient}, which is not thread-safe; a read holds it only to fetch
 * its blocks (with the Merkle root of that moment) and verifies them after releasing it, so reads verify in parallel.
 */
public final class PorBlobStore implements BlobStore {
    static final String PACKS = "p/";
    private static final Logger LOG = LoggerFactory.getLogger(PorBlobStore.class);
    private static final int PAGE = 1000;
    /** Blocks of U read back per audit: the paper's lambda. */
    static final int U_SAMPLE = 128;

    private final BlobStore inner;
    private final BlockMapStore map;
    private final PorServer server;
    private final ClientStateFile backup;
    /** Present (beside the state backup) while blocks are written whose state is not committed yet. */
    private final Path writing;
    private final ReentrantLock lock = new ReentrantLock();
    private final int blockBytes;
    private final int capacity;
    private final SecureRandom random;
    private PorClient client;
    private VerifiedBlocks blocks;
    /** Blocks that reads found damaged and repaired on the way (a metric: read without the lock). */
    private final AtomicLong repairedOnRead = new AtomicLong();
    private FreeIndices free;
    /** Counts the changes that zero blocks (deletes, overwrites), so an open stream notices its blocks may be gone. */
    private volatile long generation;

    private PorBlobStore(BlobStore inner, BlockMapStore map, PorServer server, Path stateBackup, SecureRandom random) {
        this.inner = inner;
        this.random = random;
        this.map = map;
        this.server = server;
        this.backup = stateBackup == null ? null : new ClientStateFile(stateBackup);
        this.writing = stateBackup == null ? null : stateBackup.resolveSibling(stateBackup.getFileName() + ".writing");
        this.blockBytes = server.blockBytes();
        this.capacity = 1 << server.k();
    }

    /**
     * Opens the store: with the client state in {@code map}, from it; with none there but a state backup file, from
     * the backup, rebuilding the map from U (the metadata database was lost); else a fresh PoR store is initialised
     * on {@code server} under the key {@code key.deriveSecret("por")}. {@code stateBackup} (may be null) receives
     * the client state after every change (0600).
     */
    public static PorBlobStore open(BlobStore inner, BlockMapStore map, PorServer server, MasterKey key,
            Path stateBackup, SecureRandom random) throws IOException {
        if (server.blockBytes() < PackHeader.MIN_BLOCK_BYTES) {
            throw new IllegalArgumentException("PoR blocks of " + server.blockBytes() + " bytes are too small for "
                    + "the pack store: at least " + PackHeader.MIN_BLOCK_BYTES);
        }
        byte[] porKey = key.deriveSecret("por");
        PorBlobStore store = new PorBlobStore(inner, map, server, stateBackup, random);
        try {
            Optional<byte[]> stored = map.state();
            if (stored.isPresent()) {
                ClientState state = checkKey(ClientState.fromBytes(stored.get()), porKey);
                store.start(new PorClient(server, state, random, s -> { }), map.freeBlocks());
                store.resyncIfApart();
                store.saveBackup();
            } else if (stateBackup != null && Files.exists(stateBackup)) {
                ClientState state = checkKey(new ClientStateFile(stateBackup).load(), porKey);
                store.start(new PorClient(server, state, random, s -> { }), new FreeBlocks(0, new int[0]));
                store.resyncIfApart();
                List<Entry> entries = store.rebuildMap();
                FreeBlocks free = freeBlocksBeside(entries);
                map.replaceAll(entries, free, state.toBytes());
                store.free = new FreeIndices(store.capacity, free);
                LOG.warn("PoR block map rebuilt from U ({} blobs) with the client state of {}", entries.size(),
                        stateBackup);
            } else {
                PorClient client = PorClient.initialize(server, porKey, random, s -> { });
                FreeBlocks none = new FreeBlocks(0, new int[0]);
                map.replaceAll(List.of(), none, client.state().toBytes());
                store.start(client, none);
                store.saveBackup();
            }
        } catch (RuntimeException e) {
            throw new IOException("cannot open the PoR store over " + inner.describe() + ": " + e.getMessage(), e);
        } finally {
            Arrays.fill(porKey, (byte) 0);
        }
        return store;
    }

    private static ClientState checkKey(ClientState state, byte[] porKey) {
        if (!Arrays.equals(state.masterKey(), porKey)) {
            throw new IllegalArgumentException("the PoR client state belongs to another master key");
        }
        return state;
    }

    /**
     * The server applied writes the stored client state never recorded (a crash between a pack's block writes and
     * its metadata commit): its log state is ahead. Then the client resynchronises ({@link PorClient#resync}: U's
     * sealed checksums, each opened under the client's key, give the new root, and C is rebuilt at a fresh epoch).
     * The uncommitted pack's blocks are not in the map, so they are free space. With write batching a crash inside a
     * batch changes U but not the log state; the next write's path check fails then (not resynchronised here).
     */
    private void resyncIfApart() throws IOException {
        LogState ours = client.state().hLog();
        LogState theirs;
        try {
            theirs = server.logState();
        } catch (UnsupportedOperationException e) {
            return; // a server that cannot resynchronise (tests' adversaries)
        }
        boolean interrupted = writing != null && Files.exists(writing);
        if (theirs.equals(ours) && !interrupted) {
            return;
        }
        LOG.warn("the PoR server's log is at t={} of epoch {}, the client state's at t={} of epoch {}{}: resynchronising"
                + " (U's sealed checksums checked, C rebuilt)", theirs.t(), theirs.epoch(), ours.t(), ours.epoch(),
                interrupted ? ", and block writes were interrupted" : "");
        client.resync();
        map.saveState(stateBytes());
        saveBackup();
        clearWriting();
    }

    /**
     * Marks block writes in progress (durably: a crash after the server applied some of them must be noticed at the
     * next open, also where the log state does not show it, inside a write batch).
     */
    private void markWriting() throws IOException {
        if (writing != null && !Files.exists(writing)) {
            try (FileChannel c = FileChannel.open(writing, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                c.force(true);
            }
        }
    }

    /** The client state of every write so far is committed: no resynchronisation is needed. */
    private void clearWriting() throws IOException {
        if (writing != null) {
            Files.deleteIfExists(writing);
        }
    }

    private void start(PorClient c, FreeBlocks stored) {
        this.client = c;
        this.blocks = new VerifiedBlocks(c, repairedOnRead);
        this.free = new FreeIndices(capacity, stored);
    }

    static boolean isPack(String name) {
        return name.startsWith(PACKS);
    }

    // ---- BlobStore

    @Override
    public void put(String name, BlobContent content) throws IOException {
        if (!isPack(name)) {
            inner.put(name, content);
            return;
        }
        BlobNames.requireValid(name);
        long length = content.length();
        lock.lock();
        try {
            int count = PackHeader.blockCount(name, length, blockBytes, capacity);
            if (count < 0 || count > free.available()) {
                throw new IOException("PoR store full: " + free.used() + " of " + capacity + " blocks used, "
                        + name + " (" + length + " bytes) needs " + (count < 0 ? "more than " + capacity : count));
            }
            int[] blocks = free.peek(count);
            Instant created = Instant.ofEpochMilli(System.currentTimeMillis());
            markWriting();
            writeBlocks(name, content, new PackHeader(name, length, created, blocks));
            Optional<Entry> old = map.entry(name);
            map.put(new Entry(name, length, blocks, created), free.nextUnusedAfter(blocks), stateBytes());
            free.take(blocks);
            saveBackup();
            if (old.isPresent()) {
                generation++;
                try {
                    zero(old.get().blocks());
                } finally {
                    free.free(old.get().blocks());
                    persistState();
                }
            }
            clearWriting();
        } finally {
            lock.unlock();
        }
    }

    /** Writes header and content into the header's blocks and flushes them into H; on failure zeroes them again. */
    private void writeBlocks(String name, BlobContent content, PackHeader header) throws IOException {
        int[] blocks = header.blocks();
        long total = header.bytes() + header.length();
        int started = 0;
        try (InputStream data = content.open();
             InputStream stream = new SequenceInputStream(new ByteArrayInputStream(header.encode()), data)) {
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
            persistState();
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("PoR write of " + name + " failed: " + e.getMessage(), e);
        }
    }

    /** Writes zero blocks at {@code indices} (a delete, appendix A.3) and flushes them into H. */
    private void zero(int[] indices) throws IOException {
        try {
            for (int index : indices) {
                client.write(index, new byte[blockBytes]);
            }
            client.flush();
        } catch (RuntimeException e) {
            throw new IOException("PoR store could not zero freed blocks: " + e.getMessage(), e);
        }
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        if (!isPack(name)) {
            return inner.get(name, offset, length);
        }
        BlobNames.requireValid(name);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " for blob " + name);
        }
        lock.lock();
        try {
            Entry entry = map.entry(name).orElseThrow(() -> new BlobNotFoundException(name));
            long start = Math.min(offset, entry.length());
            long end = length < 0 || length > entry.length() - start ? entry.length() : start + length;
            PackStream stream = new PackStream(this, entry, start, end, generation);
            stream.fill(); // the first part under the same lock as the lookup
            return stream;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        if (!isPack(name)) {
            inner.readInto(name, offset, dst, dstOffset, length);
            return;
        }
        BlobNames.requireValid(name);
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length for blob " + name);
        }
        Fetch fetch;
        lock.lock();
        try {
            Entry entry = map.entry(name).orElseThrow(() -> new BlobNotFoundException(name));
            if (offset + length > entry.length()) {
                throw new EOFException("blob " + name + " has " + Math.max(0, entry.length() - offset) + " of "
                        + length + " bytes at offset " + offset);
            }
            fetch = fetchRange(entry, offset, length);
        } finally {
            lock.unlock();
        }
        fetch.copyVerified(dst, dstOffset);
    }

    /** Reads part of a stream's entry, unless it was replaced or deleted since the stream saw generation {@code seen}. */
    long readForStream(Entry entry, long seen, long from, byte[] dst, int n) throws IOException {
        Fetch fetch;
        long now;
        lock.lock();
        try {
            if (generation != seen && !map.entry(entry.name()).map(entry::equals).orElse(false)) {
                throw new IOException("blob " + entry.name() + " was replaced or deleted while being read");
            }
            fetch = fetchRange(entry, from, n);
            now = generation;
        } finally {
            lock.unlock();
        }
        fetch.copyVerified(dst, 0);
        return now;
    }

    /**
     * Fetches the blocks that cover content bytes [from, from + n) of {@code entry} with the Merkle root of now; the
     * caller holds the lock. The checks (a checksum over each whole block: nearly all of a read's CPU) run after the
     * lock is released, so reads verify concurrently ({@link Fetch#copyVerified}).
     */
    private Fetch fetchRange(Entry entry, long from, int n) {
        int[] blocks = entry.blocks();
        long pos = PackHeader.length(entry.name().length(), blocks.length) + from;
        int first = (int) (pos / blockBytes);
        int last = n == 0 ? first - 1 : (int) ((pos + n - 1) / blockBytes);
        List<PorClient.Fetched> fetched = new ArrayList<>(Math.max(0, last - first + 1));
        for (int j = first; j <= last; j++) {
            PorClient.Fetched f;
            try {
                f = client.fetch(blocks[j]);
            } catch (RuntimeException e) {
                f = null; // the server could not serve it: repaired like a block that fails its check
            }
            fetched.add(f);
        }
        return new Fetch(entry, (int) (pos - (long) first * blockBytes), n, first, fetched);
    }

    /** Blocks fetched for a range, to be checked and copied out without the lock. */
    private final class Fetch {
        private final Entry entry;
        private final int within;
        private final int n;
        private final int first;
        private final List<PorClient.Fetched> blocks;

        Fetch(Entry entry, int within, int n, int first, List<PorClient.Fetched> blocks) {
            this.entry = entry;
            this.within = within;
            this.n = n;
            this.first = first;
            this.blocks = blocks;
        }

        /**
         * Copies the range into {@code dst}, each block verified; one that fails is read again under the lock, where
         * it is repaired with the rest of its pack ({@link #verifiedBlock}).
         */
        void copyVerified(byte[] dst, int off) throws IOException {
            int at = within;
            int left = n;
            for (int i = 0; i < blocks.size(); i++) {
                byte[] block = checked(blocks.get(i));
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

    /** Block {@code j} of {@code entry} read again under the lock, repaired if it fails. */
    private byte[] verifiedUnderLock(Entry entry, int j) throws IOException {
        lock.lock();
        try {
            return verifiedBlock(entry, j);
        } finally {
            lock.unlock();
        }
    }

    /**
     * U[index], verified. When it fails, every block of the pack is checked and all that fail are repaired from C and H
     * together (a decode costs about the same for one block as for many, and damage rarely comes alone), then the
     * block is read again. The caller holds the lock.
     */
    private byte[] verifiedBlock(Entry entry, int j) throws IOException {
        return blocks.verified(entry.name(), j, entry.blocks()[j], entry.blocks());
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        if (!isPack(name)) {
            return inner.head(name);
        }
        BlobNames.requireValid(name);
        return map.entry(name).map(e -> new BlobInfo(name, e.length(), e.created()));
    }

    @Override
    public void delete(String name) throws IOException {
        if (!isPack(name)) {
            inner.delete(name);
            return;
        }
        BlobNames.requireValid(name);
        lock.lock();
        try {
            Optional<Entry> entry = map.entry(name);
            if (entry.isEmpty()) {
                return;
            }
            generation++;
            markWriting();
            try {
                zero(entry.get().blocks());
            } catch (IOException e) {
                persistState();
                throw e;
            }
            map.remove(name, stateBytes());
            free.free(entry.get().blocks());
            saveBackup();
            clearWriting();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public BlobListing list(String prefix) throws IOException {
        BlobNames.requireValidPrefix(prefix);
        if (isPack(prefix)) {
            return new MapListing(map, prefix, PAGE);
        }
        if (PACKS.startsWith(prefix)) {
            return MapListing.merged(new MapListing(map, prefix, PAGE), inner.list(prefix), PACKS);
        }
        return inner.list(prefix);
    }

    @Override
    public void prepareFolders(Collection<String> prefixes) throws IOException {
        List<String> others = prefixes.stream().filter(p -> !isPack(p)).toList();
        if (!others.isEmpty()) {
            inner.prepareFolders(others);
        }
    }

    @Override
    public String describe() {
        return "por(" + capacity + " blocks of " + blockBytes + " bytes) over " + inner.describe();
    }

    @Override
    public void close() throws IOException {
        try {
            inner.close();
        } finally {
            if (server instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (IOException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IOException("cannot close the PoR server handle", e);
                }
            }
        }
    }

    // ---- PoR operations

    public int blocksUsed() {
        lock.lock();
        try {
            return free.used();
        } finally {
            lock.unlock();
        }
    }

    public int capacity() {
        return capacity;
    }

    /** How many blocks reads have repaired on the way since the store opened ({@link #repair}'s are in its report). */
    public long blocksRepairedOnRead() {
        return repairedOnRead.get();
    }

    /** One audit (section 5.5); a server that cannot answer is a failed audit. */
    public PorAuditReport audit() {
        lock.lock();
        try {
            Traffic traffic = client.traffic();
            long up = traffic.overheadUp();
            long down = traffic.overheadDown();
            long started = System.nanoTime();
            LogState log = client.state().hLog();
            int levels = 1;
            for (int level = 0; level <= log.k(); level++) {
                levels += log.filled(level) ? 1 : 0;
            }
            AuditVerdict verdict;
            try {
                verdict = client.audit();
            } catch (RuntimeException e) {
                verdict = AuditVerdict.fail(0, "the audit could not run: " + e.getMessage());
            }
            int[] sample = sampleOfU();
            int bad = blocks.failing(sample).size();
            String detail = !verdict.passed() ? verdict.reason()
                    : bad > 0 ? "U: " + bad + " of " + sample.length + " sampled blocks fail verification; `coffer"
                            + " repair` decodes them from C and H"
                    : "every sampled code vector matched its checksum and every sampled block of U its proof";
            return new PorAuditReport(verdict.passed() && bad == 0, levels, verdict.blocksSampled(), sample.length,
                    bad, traffic.overheadDown() - down, traffic.overheadUp() - up,
                    Duration.ofNanos(System.nanoTime() - started), detail);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Up to {@link #U_SAMPLE} distinct blocks of U in use, uniformly at random (all of them when fewer): the section
     * 5.5 audit samples only C and H, so damage to U itself (what reads are served from) would otherwise go unseen
     * until a read meets it. With a fraction f of U's blocks bad, all of the sample is good with probability about
     * (1 - f)^128. The caller holds the lock.
     */
    private int[] sampleOfU() {
        int[] used = mappedEntries().stream().flatMapToInt(e -> Arrays.stream(e.blocks())).toArray();
        int n = Math.min(U_SAMPLE, used.length);
        for (int i = 0; i < n; i++) { // partial Fisher-Yates shuffle
            int j = i + random.nextInt(used.length - i);
            int t = used[i];
            used[i] = used[j];
            used[j] = t;
        }
        return Arrays.copyOf(used, n);
    }

    /**
     * Reads every mapped block verified and repairs the failing ones from C and H with one decode for all of them
     * (each level decoded once, the blocks then fetched, checked and written back a page at a time).
     */
    public PorRepairReport repair() throws IOException {
        long started = System.nanoTime();
        long checked = 0;
        List<Integer> damaged = new ArrayList<>();
        for (Entry entry : mappedEntries()) {
            for (int index : entry.blocks()) {
                checked++;
                lock.lock();
                try {
                    client.read(index);
                } catch (RuntimeException e) {
                    damaged.add(index);
                } finally {
                    lock.unlock();
                }
            }
        }
        List<Integer> unrepairable;
        lock.lock();
        try {
            unrepairable = blocks.repairAll(damaged);
        } finally {
            lock.unlock();
        }
        long repaired = damaged.size() - unrepairable.size();
        if (!unrepairable.isEmpty()) {
            LOG.error("PoR repair: {} blocks could not be repaired: {}", unrepairable.size(), unrepairable);
        }
        return new PorRepairReport(checked, damaged.size(), repaired, unrepairable,
                Duration.ofNanos(System.nanoTime() - started));
    }

    private List<Entry> mappedEntries() {
        List<Entry> all = new ArrayList<>();
        String after = null;
        for (List<Entry> page; !(page = map.list("", after, PAGE)).isEmpty(); ) {
            all.addAll(page);
            after = page.get(page.size() - 1).name();
        }
        return all;
    }

    /**
     * The block map as U holds it: every block is read (verified, repaired where it fails) and those that start a
     * {@link PackHeader} give an entry. Where headers claim the same name or block (a crash between writing a blob
     * and zeroing what it replaced), the newest wins. Changes nothing.
     */
    public List<Entry> rebuildMap() throws IOException {
        List<PackHeader> found = new ArrayList<>();
        for (int index = 0; index < capacity; index++) {
            lock.lock();
            try {
                PackHeader header = PackHeader.decode(index, blocks.verified("U", 0, index, new int[] {index}), capacity, i -> {
                    try {
                        return blocks.verified("U", 0, i, new int[] {i});
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                if (header != null) {
                    found.add(header);
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            } finally {
                lock.unlock();
            }
        }
        return MapRebuild.resolve(found, capacity);
    }

    static FreeBlocks freeBlocksBeside(List<Entry> entries) {
        return MapRebuild.freeBlocks(entries);
    }

    // ---- state

    private byte[] stateBytes() {
        return client.state().toBytes();
    }

    /** After a change that failed part-way: the server has moved on, so the stored state must follow. */
    private void persistState() {
        try {
            map.saveState(stateBytes());
            saveBackup();
        } catch (RuntimeException e) {
            LOG.error("cannot store the PoR client state after a failed change; the next check may fail", e);
        }
    }

    private void saveBackup() {
        if (backup == null) {
            return;
        }
        try {
            backup.save(client.state());
        } catch (UncheckedIOException e) {
            LOG.error("cannot write the PoR client state backup (the metadata store holds the state)", e);
        }
    }
}

package io.coffer.por.blob;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.ClientStateFile;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.server.PorServer;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobNames;
import io.coffer.sdk.blob.BlobNotFoundException;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.StorageFullException;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import io.coffer.sdk.meta.BlockMapStore.FreeBlocks;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
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
 * The parts: {@link PackWriter} (the write path), {@link PackReader} (fetch and verify), {@link PorMaintenance} (audit,
 * repair, map rebuild) and {@link StateKeeper} (the state backup and the interrupted-writes marker); this class routes
 * blobs, keeps the block map and free indices, and owns the lock.
 */
public final class PorBlobStore implements BlobStore {
    static final String PACKS = "p/";
    private static final Logger LOG = LoggerFactory.getLogger(PorBlobStore.class);
    static final int PAGE = 1000;
    /** Blocks of U read back per audit: the paper's lambda. */
    static final int U_SAMPLE = PorMaintenance.U_SAMPLE;
    /**
     * Bytes of packs read and checksummed before the lock ({@link PackWriter#prepare}) that puts may hold at once, a
     * copy each beside the engine's buffer: four of the engine's 8 MiB packs. The lock lets one put write at a time,
     * so more would only wait; a put beyond it reads its pack under the lock instead.
     */
    static final long PREPARED_BUDGET_BYTES = 32L << 20;

    private final BlobStore inner;
    private final BlockMapStore map;
    private final PorServer server;
    private final StateKeeper state;
    private final ReentrantLock lock = new ReentrantLock();
    private final int blockBytes;
    /** 2^k of the client's state: it grows (under the lock) when a pack needs more blocks than are free. */
    private volatile int capacity;
    private final SecureRandom random;
    /** Blocks of prepared packs that may be held now ({@link #PREPARED_BUDGET_BYTES}). */
    private final Semaphore preparedBlocks;
    /** Verifies the later blocks of a read while its thread checks the first. */
    private final CheckPool checks = CheckPool.forThisMachine();
    private PorClient client;
    private PackWriter writer;
    private PackReader reader;
    private PorMaintenance maintenance;
    /** Blocks that reads found damaged and repaired on the way (a metric: read without the lock). */
    private final AtomicLong repairedOnRead = new AtomicLong();
    private FreeIndices free;
    /** Counts the changes that zero blocks (deletes, overwrites, moves), so an open stream looks its pack up again. */
    private volatile long generation;
    /** Creation times that tell versions of a name apart (a stream follows a moved pack, not a replaced one). */
    private final PackVersions versions = new PackVersions();

    private PorBlobStore(BlobStore inner, BlockMapStore map, PorServer server, Path stateBackup, SecureRandom random,
            long preparedBudget) {
        this.inner = inner;
        this.random = random;
        this.map = map;
        this.server = server;
        this.state = new StateKeeper(map, stateBackup);
        this.blockBytes = server.blockBytes();
        this.preparedBlocks = new Semaphore((int) Math.min(Integer.MAX_VALUE, preparedBudget / blockBytes));
    }

    /**
     * Opens the store: with the client state in {@code map}, from it; with none there but a state backup file, from
     * the backup, rebuilding the map from U (the metadata database was lost); else a fresh PoR store is initialised
     * on {@code server} under the key {@code key.deriveSecret("por")}. {@code stateBackup} (may be null) receives
     * the client state after every change (0600).
     */
    public static PorBlobStore open(BlobStore inner, BlockMapStore map, PorServer server, MasterKey key,
            Path stateBackup, SecureRandom random) throws IOException {
        return open(inner, map, server, key, stateBackup, random, PREPARED_BUDGET_BYTES);
    }

    /** As above, with at most {@code preparedBudget} bytes of prepared packs held at once (0: every put streams). */
    static PorBlobStore open(BlobStore inner, BlockMapStore map, PorServer server, MasterKey key,
            Path stateBackup, SecureRandom random, long preparedBudget) throws IOException {
        if (server.blockBytes() < PackHeader.MIN_BLOCK_BYTES) {
            throw new IllegalArgumentException("PoR blocks of " + server.blockBytes() + " bytes are too small for "
                    + "the pack store: at least " + PackHeader.MIN_BLOCK_BYTES);
        }
        byte[] porKey = key.deriveSecret("por");
        PorBlobStore store = new PorBlobStore(inner, map, server, stateBackup, random, preparedBudget);
        try {
            Optional<byte[]> stored = map.state();
            if (stored.isPresent()) {
                ClientState state = checkKey(ClientState.fromBytes(stored.get()), porKey);
                store.start(new PorClient(server, state, random, s -> { }), map.freeBlocks());
                store.resyncIfApart();
                store.state.saveBackup();
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
                store.state.saveBackup();
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
     * batch changes U but not the log state: the writing marker (or, in this process, a change that failed part-way)
     * makes the resync happen then.
     */
    void resyncIfApart() throws IOException {
        LogState ours = client.state().hLog();
        LogState theirs;
        try {
            theirs = server.logState();
        } catch (UnsupportedOperationException e) {
            return; // a server that cannot resynchronise (tests' adversaries)
        }
        boolean interrupted = state.interrupted();
        if (theirs.equals(ours) && !interrupted) {
            return;
        }
        LOG.warn("the PoR server's log is at t={} of epoch {}, the client state's at t={} of epoch {}{}: resynchronising"
                + " (U's sealed checksums checked, C rebuilt)", theirs.t(), theirs.epoch(), ours.t(), ours.epoch(),
                interrupted ? ", and block writes were interrupted" : "");
        // a server at a smaller k: a shrink whose answer was lost, followed only where no mapped block is cut (with no
        // map yet, the database lost, not at all)
        client.resync(map.state().isPresent() ? free.smallestK() : client.state().k());
        map.saveState(state.stateBytes());
        state.saveBackup();
        state.clearWriting();
        resized();
    }

    /**
     * A put, delete or grow of this process that failed after its writes began (a PoR server killed and restarted
     * behind {@code ReconnectingPorServer}: a write or grow it applied, its answer lost) may have left the server
     * ahead of the client state, where every later write's and read's path check would fail until a restart: so
     * the next put, delete or read resynchronises first, as an open does after a crash (the store's lock held).
     */
    void resyncIfAChangeFailed() throws IOException {
        if (state.changeFailed()) {
            resyncIfApart();
        }
    }

    /** The capacity of the client's state, after a resize or a resync that followed the server's. */
    void resized() {
        capacity = 1 << client.state().k();
        if (free != null) {
            free.resize(capacity);
        }
    }

    /**
     * Grows the store (appendix A.3: {@link PorClient#grow}, one C rebuild at the new capacity) to the smallest
     * capacity with {@code count} blocks free, if the server's largest allows; the state is committed and backed up
     * before the pack's writes begin. The writing marker covers the grow: a crash before the commit makes the next
     * open resynchronise (to the new capacity where the server grew), and the next put in this process too
     * ({@link #resyncIfAChangeFailed}). Returns whether the pack fits now.
     */
    private boolean growFor(int count) throws IOException {
        int k = client.state().k();
        int maxK = server.maxK();
        while (k < maxK && (1L << k) - free.used() < count) {
            k++;
        }
        if ((1L << k) - free.used() < count) {
            return false;
        }
        LOG.info("PoR store growing from {} to {} blocks ({} used, a pack needs {})", capacity, 1 << k, free.used(),
                count);
        state.markWriting();
        try {
            client.grow(k);
        } catch (RuntimeException e) {
            if (server.k() != client.state().k()) { // the server grew, its answer was lost: follow it now
                try {
                    resyncIfApart();
                } catch (IOException | RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            throw new IOException("cannot grow the PoR store to " + (1 << k) + " blocks: " + e.getMessage(), e);
        }
        map.saveState(state.stateBytes());
        state.saveBackup();
        state.clearWriting();
        resized();
        LOG.info("PoR store grown to {} blocks", capacity);
        return true;
    }

    private void start(PorClient c, FreeBlocks stored) {
        this.client = c;
        state.attach(c);
        VerifiedBlocks blocks = new VerifiedBlocks(c, repairedOnRead);
        this.writer = new PackWriter(c, state, blockBytes);
        this.reader = new PackReader(c, map, blocks, lock, blockBytes, checks);
        this.maintenance = new PorMaintenance(c, blocks, map, lock, random);
        this.capacity = 1 << c.state().k();
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
        int count = PackHeader.blockCount(name, length, blockBytes, 1 << server.maxK()); // the store grows
        boolean reserved = count > 0 && preparedBlocks.tryAcquire(count);
        try {
            // The content's blocks and most of their checksums before the lock: another put's write holds it now.
            put(name, content, length, count,
                    reserved ? writer.prepare(name, content, count, PackHeader.length(name.length(), count)) : null);
        } finally {
            if (reserved) {
                preparedBlocks.release(count);
            }
        }
    }

    private void put(String name, BlobContent content, long length, int count, PackWriter.Prepared prepared)
            throws IOException {
        long backup;
        lock.lock();
        try {
            resyncIfAChangeFailed();
            if (count < 0 || count > free.available() && !growFor(count)) {
                throw new StorageFullException("PoR store full: " + free.used() + " of " + capacity + " blocks used,"
                        + " the server's largest store holds " + (1L << server.maxK()) + " blocks; " + name + " ("
                        + length + " bytes) needs " + (count < 0 ? "more than that" : count));
            }
            int[] blocks = free.peek(count);
            Optional<Entry> old = map.entry(name);
            Instant created = versions.next(old);
            state.markWriting();
            PackHeader header = new PackHeader(name, length, created, blocks);
            if (prepared != null) {
                writer.writeBlocks(name, prepared, header);
            } else {
                writer.writeBlocks(name, content, header);
            }
            map.put(new Entry(name, length, blocks, created), free.nextUnusedAfter(blocks), state.stateBytes());
            free.take(blocks);
            backup = state.stageBackup();
            if (old.isPresent()) {
                generation++;
                try {
                    writer.zero(old.get().blocks());
                } finally {
                    free.free(old.get().blocks());
                    state.persistState();
                }
            }
            state.clearWriting();
        } finally {
            lock.unlock();
        }
        state.awaitBackup(backup); // its force outside the lock: the next pack's writes go on meanwhile
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
            resyncIfAChangeFailed(); // else every block's path check fails against a server gone ahead
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
        PackReader.Fetch fetch;
        lock.lock();
        try {
            Entry entry = map.entry(name).orElseThrow(() -> new BlobNotFoundException(name));
            if (offset + length > entry.length()) {
                throw new EOFException("blob " + name + " has " + Math.max(0, entry.length() - offset) + " of "
                        + length + " bytes at offset " + offset);
            }
            resyncIfAChangeFailed();
            fetch = reader.fetch(entry, offset, length);
        } finally {
            lock.unlock();
        }
        fetch.copyVerified(dst, dstOffset);
    }

    /**
     * Reads part of {@code stream}'s pack: fetched under the lock, verified after it. When a change zeroed blocks since
     * the stream's last part (a delete, a put that replaced a pack, a consolidation's move), its pack is looked up again
     * first ({@link PackReader#current}): moved, the stream reads on at the new blocks; replaced or deleted, it fails.
     */
    void readForStream(PackStream stream, long from, byte[] dst, int n) throws IOException {
        PackReader.Fetch fetch;
        lock.lock();
        try {
            if (generation != stream.generation) {
                stream.entry = reader.current(stream.entry);
                stream.generation = generation;
            }
            fetch = reader.fetch(stream.entry, from, n);
        } finally {
            lock.unlock();
        }
        fetch.copyVerified(dst, 0);
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
        long backup;
        lock.lock();
        try {
            Optional<Entry> entry = map.entry(name);
            if (entry.isEmpty()) {
                return;
            }
            resyncIfAChangeFailed();
            versions.retired(entry.get());
            generation++;
            state.markWriting();
            try {
                writer.zero(entry.get().blocks());
            } catch (IOException e) {
                state.persistState();
                throw e;
            }
            map.remove(name, state.stateBytes());
            free.free(entry.get().blocks());
            backup = state.stageBackup();
            state.clearWriting();
        } finally {
            lock.unlock();
        }
        state.awaitBackup(backup);
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
        checks.close();
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

    /**
     * Consolidation (appendix A.3, {@link Consolidation}): when more than half of the indices ever used are deleted
     * and the live blocks fit twice over in a smaller capacity of at least 2^{@code minK} blocks, the packs above it
     * move below and the store shrinks. Puts, deletes and reads go on between the moves.
     */
    public PorConsolidationReport consolidate(int minK) throws IOException {
        return new Consolidation(this).run(minK);
    }

    ReentrantLock lock() {
        return lock;
    }

    FreeIndices free() {
        return free;
    }

    PorClient client() {
        return client;
    }

    BlockMapStore map() {
        return map;
    }

    PackReader reader() {
        return reader;
    }

    PackWriter writer() {
        return writer;
    }

    StateKeeper state() {
        return state;
    }

    PorServer server() {
        return server;
    }

    /** A change that zeroes blocks: open streams look their pack up again before reading on. */
    void zeroing() {
        generation++;
    }

    /** One audit (section 5.5); a server that cannot answer is a failed audit. */
    public PorAuditReport audit() {
        return maintenance.audit();
    }

    /**
     * Reads every mapped block verified and repairs the failing ones from C and H with one decode for all of them
     * (each level decoded once, the blocks then fetched, checked and written back a page at a time).
     */
    public PorRepairReport repair() throws IOException {
        return maintenance.repair();
    }

    /**
     * The block map as U holds it: every block is read (verified, repaired where it fails) and those that start a
     * {@link PackHeader} give an entry. Where headers claim the same name or block (a crash between writing a blob
     * and zeroing what it replaced), the newest wins. Changes nothing.
     */
    public List<Entry> rebuildMap() throws IOException {
        return maintenance.rebuildMap();
    }

    static FreeBlocks freeBlocksBeside(List<Entry> entries) {
        return MapRebuild.freeBlocks(entries);
    }
}

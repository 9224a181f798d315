package io.coffer.por.store;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.code.LogState;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.PorCodec;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.HonestPorServer;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A durable PoR server in a directory: the honest server over {@link DirectoryStorage} (U, its Merkle tree, C and H in
 * files: memory independent of n, but for one element position of C in a repair's decode), with a redo journal for
 * crash safety.
 *
 * <p>The journal ({@link SegmentedJournal}) is a series of segments, each begun by a checkpoint (the log state: t and
 * the epoch) and holding the calls made since. H's smallest levels live in memory only ({@link
 * DirectoryStorage#memoryLevels()}, m of them) and need not be empty at a checkpoint: the journal keeps, before it,
 * the records of the latest adds (its window: whole segments, at least {@link HonestPorServer#addsHeldBelow}(m) = W
 * adds), and a restart first replays the window's adds into those levels alone ({@link MemoryLevelsOnly}: U, the
 * larger levels, C and the checksums in files were on disk at the checkpoint), then redoes the calls after the
 * checkpoint. The checkpoint moves after a batch once 2^m adds have gone by since the last (as often as when it waited
 * for empty levels), and after a C rebuild or a resynchronisation (t = 0: no window); older segments are deleted once
 * outside the window, so no record is written twice. Each call is checked, then appended to the journal, then applied.
 * Writes are not forced on their own (group commit): a flush (the client's end of a pack, with or without blocks
 * pending), a C rebuild and a resync force their record and every one before it, and only then do U's pending writes
 * go to its files (unforced); a checkpoint forces the journal and the files, then begins the next segment. What a
 * crash of the machine (not of the process) can lose is the writes since the last flush. Redoing the calls after a
 * checkpoint is safe however far the crash got, because it is idempotent: writes only overwrite U, an add that reaches
 * the files rewrites its one level that was empty at the checkpoint from the levels below it (which it leaves alone;
 * 2^m adds hold one HAdd that reaches the files), and a C rebuild rewrites all of C from U. So an acknowledged call
 * survives kill -9, and a half-rebuilt level is never served: it is rebuilt before the server answers. A window that
 * is damaged, cut short or missing a segment is refused, never replayed into wrong levels. {@link #restore} rewrites
 * one block of U in place and forces it before it returns. A call that the server refuses changes nothing and is not
 * journaled.
 */
public final class JournaledPorServer implements PorServer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledPorServer.class);
    private HonestPorServer<DirectoryStorage> inner;
    private DirectoryStorage storage;
    private PorCodec codec;
    private SegmentedJournal journal;
    /** Where the server is, for a grow, which reopens it at the new capacity ({@link StoreGrowth}). */
    private final Path dir;
    private final BlobStore objects;
    private final long memoryBudget;
    private int maxK = ServerParameters.MAX_K;
    private final FileChannel lockFile;
    private final FileLock lock;
    private boolean failed;
    /** Whether the journal holds calls after its checkpoint. */
    private boolean callsSinceCheckpoint;
    /** The newest checkpoint: the one that begins the segment appended to. */
    private JournalCheckpoint checkpoint;
    /** The add count at which each segment of this epoch still kept began. */
    private final TreeMap<Long, Integer> segmentStarts = new TreeMap<>();
    /**
     * The first segment a window may start from: where H's levels in memory were last empty with the smaller levels
     * all in their files (a new epoch, a clean close, a former journal), or the newest window's first segment.
     */
    private long baseSegment;

    JournaledPorServer(HonestPorServer<DirectoryStorage> inner, PorCodec codec, SegmentedJournal journal,
            FileChannel lockFile, FileLock lock, JournalCheckpoint checkpoint, Path dir, BlobStore objects,
            long memoryBudget) {
        this.dir = dir;
        this.objects = objects;
        this.memoryBudget = memoryBudget;
        this.inner = inner;
        this.storage = inner.storage();
        this.codec = codec;
        this.journal = journal;
        this.lockFile = lockFile;
        this.lock = lock;
        this.checkpoint = checkpoint;
        this.baseSegment = checkpoint.windowSegment();
    }

    /**
     * Opens the server in {@code dir}, creating it with {@code requested} (k, batch exponent, block size) the first
     * time; later {@code requested} may be null, and must otherwise match. Only one process may hold the directory.
     */
    public static JournaledPorServer open(Path dir, ServerParameters requested) throws IOException {
        return open(dir, requested, null);
    }

    /**
     * As {@link #open(Path, ServerParameters)}, with U's blocks and the code vectors of C and H as objects of
     * {@code objects} (a bucket, through the sdk's {@code S3BlobStore}; null: files in {@code dir}). The journal,
     * the sealed checksums and the Merkle file stay in {@code dir}; the same bucket must come with the same directory
     * at every start. The caller closes {@code objects} after the server.
     */
    public static JournaledPorServer open(Path dir, ServerParameters requested, BlobStore objects) throws IOException {
        return open(dir, requested, objects, SmallLevelsInMemory.defaultBudget());
    }

    /** As above, with at most {@code memoryBudget} bytes of H's smallest levels in memory (0: all in files). */
    static JournaledPorServer open(Path dir, ServerParameters requested, BlobStore objects, long memoryBudget)
            throws IOException {
        return JournaledOpen.open(dir, requested, objects, memoryBudget);
    }

    /**
     * The last steps of an open ({@link JournaledOpen}): the segments' starts of the window replayed, a window the
     * storage kept resumed, then the calls after the checkpoint redone.
     */
    void resumeAndReplay(Map<Long, Integer> starts, long segment, List<ServerJournal.Entry> entries)
            throws IOException {
        segmentStarts.putAll(starts);
        segmentStarts.put(segment, checkpoint.t());
        if (storage.windowEpoch() == inner.state().epoch()) { // a restart inside a paced C rebuild's window
            inner.resumeWindow();
        }
        replay(entries, dir);
    }

    /** The storage in the directory, for tests that damage it. */
    public DirectoryStorage storage() {
        return storage;
    }

    /** The log state of H: which levels are filled, t and the epoch. */
    public LogState state() {
        return inner.state();
    }

    /** Bytes in the journal now. */
    public long journalBytes() throws IOException {
        return journal.size();
    }

    @Override
    public int blockBytes() {
        return inner.blockBytes();
    }

    @Override
    public int k() {
        return inner.k();
    }

    @Override
    public int batchExponent() {
        return inner.batchExponent();
    }

    @Override
    public ProvenBlock read(int index) {
        return inner.read(index);
    }

    @Override
    public LeafProof leaf(int index) {
        return inner.leaf(index);
    }

    @Override
    public SealedVectors sealedInputs(int count) {
        return inner.sealedInputs(count);
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
        usable();
        boolean completesBatch = inner.checkWrite(index, block, sealedChecksum, written);
        // Not forced on its own: the record reaches the disk with the next flush or checkpoint (group commit), and
        // U's files change only after that (DirectoryStorage holds the write until then).
        append(MessageType.WRITE, codec.write(index, block, sealedChecksum, written), false);
        applied(() -> inner.write(index, block, sealedChecksum, written), completesBatch, false);
    }

    /** Adds the pending blocks as a batch, if any; either way every call so far is on disk when it returns. */
    @Override
    public void flush(SealedVectors written) {
        usable();
        if (inner.checkFlush(written)) {
            append(MessageType.FLUSH, codec.flush(written));
            applied(() -> inner.flush(written), true, true);
        } else {
            try {
                writePendingUAfterTheirRecords();
            } catch (IOException | RuntimeException e) {
                failed = true;
                throw new IllegalStateException("PoR server: the writes so far could not be saved; restart the server",
                        e);
            }
        }
    }

    @Override
    public List<byte[]> sealedU() {
        return inner.sealedU();
    }

    @Override
    public void rebuildC(SealedLevel c) {
        usable();
        inner.checkRebuildC(c);
        append(MessageType.REBUILD_C, codec.rebuildC(c));
        applied(() -> inner.rebuildC(c), true, true);
    }

    /**
     * Yes: the window's files keep the client's part too ({@link ClientPartStorage}: U's sealed checksums at the
     * epoch's end with the copies, the uploaded ones in {@code c.next.sealed}), in files and with a bucket alike.
     */
    @Override
    public boolean pacesClientPart() {
        return inner.pacesClientPart();
    }

    /** Journaled like a C rebuild: recorded and forced, then H frozen with no checksum of the next C. */
    @Override
    public void rebuildCPaced() {
        usable();
        inner.checkRebuildCPaced();
        append(MessageType.REBUILD_C_PACED, new byte[0]);
        applied(inner::rebuildCPaced, true, true);
    }

    @Override
    public List<byte[]> snapshotSealedU(int from, int count) {
        return inner.snapshotSealedU(from, count);
    }

    /**
     * Not journaled: written at its positions of {@code c.next.sealed} and forced before it returns, so an answered
     * part is on disk; one cut short by a kill is sent again by the client (it had no answer), which replaces it.
     */
    @Override
    public void putNextSealedC(int from, byte[][] x, byte[][] y) {
        usable();
        inner.putNextSealedC(from, x, y);
    }

    @Override
    public LogState logState() {
        return inner.logState(); // apart from any client's while H is in an older store's layout
    }

    /** Journaled like a C rebuild: recorded, then U encoded into C at {@code epoch}, then the checkpoint moves. */
    @Override
    public void resync(long epoch, SealedLevel c) {
        usable();
        inner.checkResync(epoch, c);
        append(MessageType.RESYNC, codec.resync(epoch, c));
        applied(() -> inner.resync(epoch, c), true, true);
    }

    /** Grows up to 2^maxK blocks (at most {@link ServerParameters#MAX_K}, the default): an operator's bound. */
    public JournaledPorServer limitGrowth(int maxK) {
        if (maxK < k() || maxK > ServerParameters.MAX_K) {
            throw new IllegalArgumentException("the largest k must be in [" + k() + ", " + ServerParameters.MAX_K
                    + "]: " + maxK);
        }
        this.maxK = maxK;
        return this;
    }

    @Override
    public int maxK() {
        return maxK;
    }

    /**
     * Recorded in the directory (the {@code grow} file, forced) once every call before it and U's writes are on disk,
     * then made as an open makes a recorded grow ({@link StoreGrowth#complete}) and the server reopened at the new
     * capacity: a kill -9 at any instant leaves the old store (no record) or one that the next open grows.
     */
    @Override
    public void resize(int k, long epoch, SealedLevel c) {
        int from = k();
        recordGrow(k, epoch, c);
        completeGrow(from);
    }

    /** The first half of {@link #resize}: checked and recorded; a server killed now grows when it is next opened. */
    void recordGrow(int k, long epoch, SealedLevel c) {
        usable();
        inner.checkResize(k, maxK, epoch, c);
        try {
            journal.force();
            storage.force();
            StoreGrowth.record(dir, k, new PorCodec(new ServerParameters(k, batchExponent(), blockBytes()))
                    .resync(epoch, c));
        } catch (IOException e) {
            failed = true;
            throw new UncheckedIOException("PoR server: a grow could not be recorded; restart the server", e);
        }
    }

    /** The second half of {@link #resize}: the recorded grow made, and the server reopened at the new capacity. */
    private void completeGrow(int from) {
        try {
            inner.discardPreparedDecode();
            failed = true; // until reopened: the journal and the storage are closed
            journal.close();
            storage.close();
            StoreGrowth.complete(dir, objects, memoryBudget);
            JournaledPorServer grown = JournaledOpen.open(dir, ParametersFile.fix(dir.resolve("parameters"), null),
                    objects, memoryBudget, lockFile, lock);
            inner = grown.inner;
            storage = grown.storage;
            codec = grown.codec;
            journal = grown.journal;
            checkpoint = grown.checkpoint;
            segmentStarts.clear();
            segmentStarts.putAll(grown.segmentStarts);
            baseSegment = grown.baseSegment;
            callsSinceCheckpoint = grown.callsSinceCheckpoint;
            failed = false;
            LOG.info("PoR server in {}: {} to 2^{} blocks", dir, k() < from ? "shrunk" : "grown", k());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("PoR server: a recorded grow could not be made; restart the server", e);
        }
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        return inner.audit(challenge);
    }

    /** Paced, over files or a bucket's generations of objects (PacedWindowFiles, BlobGenerations). */
    @Override
    public boolean pacesCRebuild() {
        return inner.pacesCRebuild();
    }

    @Override
    public AuditResponse auditFrozen(AuditChallenge challenge) {
        return inner.auditFrozen(challenge);
    }

    @Override
    public void prepareDecode(List<Integer> indices) {
        inner.prepareDecode(indices);
    }

    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        return inner.decode(indices);
    }

    @Override
    public void restore(int index, byte[] block) {
        usable();
        inner.restore(index, block);
        try {
            journal.force(); // pending writes' records first: force() writes their blocks to U's files
            storage.force();
        } catch (IOException e) {
            failed = true;
            throw new UncheckedIOException("PoR storage: a restored block could not be saved; restart the server", e);
        }
    }

    /**
     * Closes the server. With no batch pending the checkpoint moves to now: where the checkpoint does not read the
     * level files (its window is long enough, or from the epoch's start) H's levels in memory go to their files first
     * and it has no window, so the next start replays nothing and the journal holds only the checkpoint; otherwise it
     * keeps its window (the files it reads stay as they are).
     */
    @Override
    public void close() throws IOException {
        inner.discardPreparedDecode(); // its spool file is scratch
        try (SegmentedJournal j = journal; DirectoryStorage s = storage; lockFile) {
            if (!failed && inner.pending() == 0 && callsSinceCheckpoint) {
                checkpoint(true);
            }
            lock.release();
        }
    }

    /**
     * Stops as kill -9 stops the process (tests): nothing more is forced, spilled or checkpointed, and what was
     * written stays in the page cache; the files and the directory's lock are let go so this process may open it
     * again.
     */
    void haltAsKilled() throws IOException {
        failed = true;
        inner.discardPreparedDecode();
        try (SegmentedJournal j = journal; DirectoryStorage s = storage; lockFile) {
            lock.release();
        }
    }

    private void usable() {
        if (failed) {
            throw new IllegalStateException("the PoR server could not save an earlier change: restart it");
        }
    }

    /** Before the change is made: a change that cannot be recorded is not made, and stops the server's changes. */
    private void append(MessageType type, byte[] payload) {
        append(type, payload, true);
    }

    private void append(MessageType type, byte[] payload, boolean force) {
        try {
            journal.append(type.code(), payload, force);
            callsSinceCheckpoint = true;
        } catch (IOException e) {
            failed = true;
            throw new UncheckedIOException("PoR journal: a " + type + " could not be saved; restart the server", e);
        }
    }

    /**
     * Makes a recorded change. One that ends a batch or an epoch moves the checkpoint when it is due; otherwise a
     * change whose record was {@code forced} lets U's pending writes go to its files.
     */
    private void applied(Runnable change, boolean endsBatch, boolean forced) {
        try {
            change.run();
            if (endsBatch && checkpointDue()) {
                checkpoint(false);
            } else if (forced) {
                storage.writePendingU();
            }
        } catch (IOException | RuntimeException e) {
            failed = true; // the journal holds the change: a restart redoes it
            throw new IllegalStateException("PoR server: a recorded change could not be made; restart the server",
                    e);
        }
    }

    /**
     * With no batch pending: in a new epoch (a C rebuild or a resync), and once 2^m adds have gone by since the
     * checkpoint, as often as when it waited for the levels in memory to be empty (so as many forces of the files),
     * each segment at most 2^m batches (what a restart holds at a time); the journal holds the window and one more.
     */
    private boolean checkpointDue() {
        LogState state = inner.state();
        return inner.pending() == 0 && (state.epoch() != checkpoint.epoch()
                || state.t() - checkpoint.t() >= 1 << storage.memoryLevels());
    }

    /** U's pending writes to its files once every record is on disk: no file change may reach the disk first. */
    private void writePendingUAfterTheirRecords() throws IOException {
        journal.force();
        storage.writePendingU();
    }

    /**
     * Forces the journal and the files, then begins the next segment with a checkpoint at now. Its window: from the
     * newest kept segment that began at least addsHeldBelow(m) adds ago, if one began at or after the base; else from
     * the base (where the levels in memory were in their files); none in a new epoch or with {@code spill} where the
     * checkpoint now does not read the level files (the levels in memory written to them first: a clean close). The
     * segments before the window are deleted.
     */
    private void checkpoint(boolean spill) throws IOException {
        journal.force(); // the records first: U's pending writes reach its files in storage.force()
        // the level files below m may be overwritten only while the checkpoint does not read them: a crash between
        // the spill and the next segment replays the window over them
        boolean spilled = spill && (!checkpoint.fromFiles() || checkpoint.windowStart() == 0);
        if (spilled) {
            storage.spillMemoryLevels();
        }
        storage.force();
        LogState state = inner.state();
        long next = journal.currentSegment() + 1;
        int levels = storage.memoryLevels();
        if (spilled || state.epoch() != checkpoint.epoch()) {
            segmentStarts.clear();
            baseSegment = next;
        }
        segmentStarts.put(next, state.t());
        long window = baseSegment;
        boolean fromFiles = true;
        int target = state.t() - inner.addsHeldBelow(levels);
        for (Map.Entry<Long, Integer> e : segmentStarts.tailMap(baseSegment, true).entrySet()) {
            if (e.getValue() <= target) {
                window = e.getKey();
                fromFiles = false;
            }
        }
        JournalCheckpoint moved = new JournalCheckpoint(state.epoch(), state.t(), segmentStarts.get(window), levels,
                fromFiles, window);
        journal.startSegment(moved.entry(), window);
        segmentStarts.headMap(window).clear();
        baseSegment = window;
        checkpoint = moved;
        callsSinceCheckpoint = false;
    }

    /** Redoes the calls recorded after the checkpoint, then moves the checkpoint past them if it is due. */
    private void replay(List<ServerJournal.Entry> entries, Path dir) throws IOException {
        try {
            JournalReplay.redo(inner, codec, entries, false);
        } catch (IllegalStateException e) {
            throw new IOException("PoR journal in " + dir + ", segment " + journal.currentSegment()
                    + ": cannot replay " + e.getMessage(), e);
        }
        if (entries.size() > 1) {
            callsSinceCheckpoint = true;
            if (checkpointDue()) {
                checkpoint(false);
            } else {
                writePendingUAfterTheirRecords(); // replayed from the file, perhaps not yet on disk
            }
        }
    }

}

package io.coffer.por.store;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A durable PoR server in a directory: the honest server over {@link DirectoryStorage} (U, its Merkle tree, C and H in
 * files: memory independent of n, but for one element position of C in a repair's decode), with a redo journal for
 * crash safety.
 *
 * <p>The journal holds a checkpoint (the log state: t and the epoch) and the calls made since. H's smallest levels
 * live in memory only ({@link DirectoryStorage#memoryLevels()}, m of them), so the checkpoint moves only when they are
 * all empty: after a batch that makes t a multiple of 2^m, and after a C rebuild or a resynchronisation (t = 0).
 * In between, the journal holds the calls since the checkpoint: at most 2^m - 1 batches' writes and adds, and those of
 * the batch now pending. Each call is checked, then appended to the journal, then applied. Writes are not forced on
 * their own (group commit): a flush (the client's end of a pack, with or without blocks pending), a C rebuild and a
 * resync force their record and every one before it, and only then do U's pending writes go to its files (unforced);
 * a call that brings the checkpoint forces the journal and the files and replaces the journal, atomically, with the
 * new checkpoint. What a crash of the machine (not of the process) can lose is the writes since the last flush. A
 * restart replays the journal over the files from the checkpoint, where the small levels were empty, so it rebuilds
 * them in memory as they were. That is safe however far the crash got, because replaying is idempotent: writes only
 * overwrite U, an add that reaches the files rewrites its one level that was empty at the checkpoint from the levels
 * below it (which it leaves alone), and a C rebuild rewrites all of C from U. So an acknowledged call survives kill
 * -9, and a half-rebuilt level is never served: it is rebuilt before the server answers. {@link #restore} rewrites one
 * block of U in place and forces it before it returns. A call that the server refuses changes nothing and is not
 * journaled.
 */
public final class JournaledPorServer implements PorServer, AutoCloseable {
    private static final byte CHECKPOINT = 101;

    private final HonestPorServer<DirectoryStorage> inner;
    private final DirectoryStorage storage;
    private final PorCodec codec;
    private final ServerJournal journal;
    private final FileChannel lockFile;
    private final FileLock lock;
    private boolean failed;
    /** Whether the journal holds calls after its checkpoint. */
    private boolean callsSinceCheckpoint;

    private JournaledPorServer(HonestPorServer<DirectoryStorage> inner, PorCodec codec, ServerJournal journal,
            FileChannel lockFile, FileLock lock) {
        this.inner = inner;
        this.storage = inner.storage();
        this.codec = codec;
        this.journal = journal;
        this.lockFile = lockFile;
        this.lock = lock;
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
        Files.createDirectories(dir);
        FileChannel lockFile = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = lockFile.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this process
        } catch (IOException | RuntimeException e) {
            lockFile.close();
            throw e;
        }
        if (lock == null) {
            lockFile.close();
            throw new IOException("the PoR server directory " + dir + " is in use by another process");
        }
        try {
            ParametersFile.Stored stored = ParametersFile.fix(dir.resolve("parameters"), requested);
            return open(dir, stored, objects, memoryBudget, lockFile, lock);
        } catch (IOException | RuntimeException e) {
            lock.release();
            lockFile.close();
            throw e;
        }
    }

    private static JournaledPorServer open(Path dir, ParametersFile.Stored stored, BlobStore objects,
            long memoryBudget, FileChannel lockFile, FileLock lock) throws IOException {
        ServerParameters params = stored.parameters();
        ByteOrder vectorOrder = stored.vectorOrder();
        List<ServerJournal.Entry> entries = new ArrayList<>();
        LogState empty = LogState.empty(params.k() - params.batchExponent());
        ServerJournal journal = ServerJournal.open(dir.resolve("journal"), params.maxFrameBytes(), entries,
                List.of(checkpointEntry(empty)));
        DirectoryStorage storage = null;
        try {
            storage = DirectoryStorage.open(dir, params.k(), params.batchExponent(), params.blockBytes(),
                    Segments.count(params.blockBytes()) + 1, objects, vectorOrder, memoryBudget);
            if (entries.isEmpty()) {
                throw new IOException("PoR journal in " + dir + " has lost its checkpoint (the log state): the"
                        + " directory is damaged");
            }
            LogState state = checkpoint(entries.get(0), params, dir);
            storage.resetSealedPresence(state.epoch() > 0);
            if (!stored.hDeamortized()) {
                AmortizedLayout.checkJournal(entries, params, dir);
                storage.awaitDeamortizedLayout(dir.resolve("parameters"));
            }
            JournaledPorServer server = new JournaledPorServer(new HonestPorServer<>(storage, state),
                    new PorCodec(params), journal, lockFile, lock);
            server.replay(entries, dir);
            return server;
        } catch (IOException | RuntimeException e) {
            try (journal; DirectoryStorage s = storage) {
                throw e;
            }
        }
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

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        return inner.audit(challenge);
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
     * Closes the server. With no batch pending, H's levels in memory go to their files first and the checkpoint moves
     * to now, so the next start replays nothing and the journal holds only the checkpoint.
     */
    @Override
    public void close() throws IOException {
        inner.discardPreparedDecode(); // its spool file is scratch
        try (journal; storage; lockFile) {
            if (!failed && inner.pending() == 0 && callsSinceCheckpoint) {
                storage.spillMemoryLevels();
                checkpoint();
            }
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
     * Makes a recorded change. One that ends a batch or an epoch moves the checkpoint if H's levels in memory are then
     * empty; otherwise a change whose record was {@code forced} lets U's pending writes go to its files.
     */
    private void applied(Runnable change, boolean endsBatch, boolean forced) {
        try {
            change.run();
            if (endsBatch && checkpointDue()) {
                checkpoint();
            } else if (forced) {
                storage.writePendingU();
            }
        } catch (IOException | RuntimeException e) {
            failed = true; // the journal holds the change: a restart redoes it
            throw new IllegalStateException("PoR server: a recorded change could not be made; restart the server",
                    e);
        }
    }

    /** Whether H's levels in memory are all empty, so that a checkpoint needs nothing the files do not hold. */
    private boolean checkpointDue() {
        return inner.pending() == 0 && (inner.state().t() & ((1 << storage.memoryLevels()) - 1)) == 0;
    }

    /** U's pending writes to its files once every record is on disk: no file change may reach the disk first. */
    private void writePendingUAfterTheirRecords() throws IOException {
        journal.force();
        storage.writePendingU();
    }

    private void checkpoint() throws IOException {
        journal.force(); // the records first: U's pending writes reach its files in storage.force()
        storage.force();
        journal.replaceWith(List.of(checkpointEntry(inner.state())));
        callsSinceCheckpoint = false;
    }

    private static ServerJournal.Entry checkpointEntry(LogState state) {
        return new ServerJournal.Entry(CHECKPOINT, ByteBuffer.allocate(12).putLong(state.epoch()).putInt(state.t())
                .array());
    }

    private static LogState checkpoint(ServerJournal.Entry entry, ServerParameters params, Path dir)
            throws IOException {
        if (entry.type() != CHECKPOINT || entry.payload().length != 12) {
            throw new IOException("PoR journal in " + dir + " does not start with a checkpoint");
        }
        ByteBuffer b = ByteBuffer.wrap(entry.payload());
        try {
            return new LogState(params.k() - params.batchExponent(), b.getInt(8), b.getLong(0));
        } catch (IllegalArgumentException e) {
            throw new IOException("PoR journal in " + dir + ": a damaged checkpoint: " + e.getMessage(), e);
        }
    }

    /** Redoes the calls recorded after the checkpoint, then moves the checkpoint past them if they ended a batch. */
    private void replay(List<ServerJournal.Entry> entries, Path dir) throws IOException {
        for (int i = 1; i < entries.size(); i++) {
            ServerJournal.Entry e = entries.get(i);
            try {
                MessageType type = MessageType.of(e.type());
                if (type == null) {
                    throw new IllegalArgumentException("unknown record type " + e.type());
                }
                switch (type) {
                    case WRITE -> {
                        PorCodec.WriteRequest w = codec.readWrite(e.payload());
                        inner.write(w.index(), w.block(), w.sealedChecksum(), w.written());
                    }
                    case FLUSH -> inner.flush(codec.readFlush(e.payload()));
                    case REBUILD_C -> inner.rebuildC(codec.readRebuildC(e.payload()));
                    case RESYNC -> {
                        PorCodec.ResyncRequest r = codec.readResync(e.payload());
                        inner.resync(r.epoch(), r.c());
                    }
                    default -> throw new IllegalArgumentException("unexpected record " + type);
                }
            } catch (RuntimeException ex) {
                throw new IOException("PoR journal in " + dir + ", record " + i + ": cannot replay: " + ex.getMessage(),
                        ex);
            }
        }
        if (entries.size() > 1) {
            callsSinceCheckpoint = true;
            if (checkpointDue()) {
                checkpoint();
            } else {
                writePendingUAfterTheirRecords(); // replayed from the file, perhaps not yet on disk
            }
        }
    }
}

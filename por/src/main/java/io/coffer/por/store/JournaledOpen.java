package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.net.PorCodec;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.HonestPorServer;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How {@link JournaledPorServer} opens its directory: the lock, the journal, the storage, the replay. */
final class JournaledOpen {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledPorServer.class);

    private JournaledOpen() {
    }

    /**
     * Opens the server in {@code dir} ({@link JournaledPorServer#open(Path, ServerParameters, BlobStore)}), with at
     * most {@code memoryBudget} bytes of H's smallest levels in memory (0: all in files): the directory locked, a
     * recorded grow completed, then the rest below.
     */
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
            StoreGrowth.complete(dir, objects, memoryBudget); // a grow a crash interrupted
            ParametersFile.Stored stored = ParametersFile.fix(dir.resolve("parameters"), requested);
            return open(dir, stored, objects, memoryBudget, lockFile, lock);
        } catch (IOException | RuntimeException e) {
            lock.release();
            lockFile.close();
            throw e;
        }
    }

    /**
     * Opens the locked directory at its stored parameters: the journal read, a paced window's freeze or switch that a
     * crash cut short finished, the storage opened, the window's adds replayed into H's levels in memory, then
     * the calls after the checkpoint redone ({@link JournaledPorServer#resumeAndReplay}). Also the reopen after a grow.
     */
    static JournaledPorServer open(Path dir, ParametersFile.Stored stored, BlobStore objects,
            long memoryBudget, FileChannel lockFile, FileLock lock) throws IOException {
        ServerParameters params = stored.parameters();
        ByteOrder vectorOrder = stored.vectorOrder();
        int k = params.k() - params.batchExponent();
        if (objects != null) {
            StoreGrowth.deleteFormerC(objects, BlobGenerations.prefix(BlobGenerations.read(dir, objects).current()),
                    params.k()); // left by a grow, also one a crash cut short
        }
        List<ServerJournal.Entry> entries = new ArrayList<>();
        SegmentedJournal journal = SegmentedJournal.open(dir, params.maxFrameBytes(), entries,
                List.of(JournalCheckpoint.inFiles(LogState.empty(k), 1).entry()), JournalCheckpoint::fromFormer);
        DirectoryStorage storage = null;
        try {
            if (entries.isEmpty()) {
                throw new IOException("PoR journal in " + dir + " has lost its checkpoint (the log state): the"
                        + " directory is damaged");
            }
            long segment = journal.currentSegment();
            JournalCheckpoint checkpoint = JournalCheckpoint.of(entries.get(0), k, segment, dir);
            checkpoint = afterFreeze(dir, journal, checkpoint, entries, k,
                    objects == null ? null : BlobGenerations.read(dir, objects));
            segment = journal.currentSegment();
            journal.deleteBefore(checkpoint.windowSegment()); // left by a crash right after the checkpoint
            int blockWidth = Segments.count(params.blockBytes()) + 1;
            storage = DirectoryStorage.open(dir, params.k(), params.batchExponent(), params.blockBytes(), blockWidth,
                    objects, vectorOrder, JournalReplay.budget(checkpoint, segment, entries.size() > 1,
                            new CodeParameters(k), blockWidth << params.batchExponent(), memoryBudget, dir));
            if (!stored.hDeamortized()) {
                AmortizedLayout.checkJournal(entries, params, dir);
                storage.awaitDeamortizedLayout(dir.resolve("parameters"));
            }
            PorCodec codec = new PorCodec(params);
            Map<Long, Integer> starts = JournalReplay.replayWindow(storage, journal, checkpoint, codec, dir);
            LogState state = checkpoint.state(k);
            storage.resetSealedPresence(state.epoch() > 0);
            JournaledPorServer server = new JournaledPorServer(new HonestPorServer<>(storage, state), codec, journal,
                    lockFile, lock, checkpoint, dir, objects, memoryBudget);
            server.resumeAndReplay(starts, segment, entries);
            return server;
        } catch (IOException | RuntimeException e) {
            try (journal; DirectoryStorage s = storage) {
                throw e;
            }
        }
    }

    /**
     * Finishes a paced window's freeze or switch that a crash interrupted (PacedWindowFiles). A window that the
     * freeze opened at the epoch after the checkpoint's: every call before the freeze was applied and forced, so the
     * journal's calls are moot and the checkpoint moves to the window's epoch (as the freeze's own call would have
     * moved it). A window of another epoch (no step leaves one: PacedWindowFiles.dropStale) is dropped, C's
     * generation kept.
     */
    private static JournalCheckpoint afterFreeze(Path dir, SegmentedJournal journal, JournalCheckpoint checkpoint,
            List<ServerJournal.Entry> entries, int k, BlobGenerations generations) throws IOException {
        PacedWindowFiles.State window = PacedWindowFiles.complete(dir, generations);
        if (window == null || window.epoch() == checkpoint.epoch()) {
            return checkpoint;
        }
        if (window.epoch() != checkpoint.epoch() + 1) {
            LOG.warn("PoR server in {}: the record of a paced C rebuild's window of epoch {} outlived it (the journal"
                    + " is at epoch {}): dropped, C kept", dir, window.epoch(), checkpoint.epoch());
            PacedWindowFiles.dropStale(dir, generations, window.epoch());
            return checkpoint;
        }
        long next = journal.currentSegment() + 1;
        JournalCheckpoint moved = JournalCheckpoint.inFiles(new LogState(k, 0, window.epoch()), next);
        journal.startSegment(moved.entry(), next);
        entries.clear();
        entries.add(moved.entry());
        return JournalCheckpoint.of(moved.entry(), k, next, dir);
    }
}

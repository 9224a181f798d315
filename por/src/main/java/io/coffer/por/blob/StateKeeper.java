package io.coffer.por.blob;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.ClientStateFile;
import io.coffer.por.client.PorClient;
import io.coffer.sdk.meta.BlockMapStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the PoR client state of a {@link PorBlobStore} is kept besides the metadata store (which commits it with each
 * map change): the backup file (0600) and the marker of block writes whose state is not committed yet. The caller
 * holds the store's lock, except for {@link #awaitBackup}.
 *
 * <p>A put's backup is written after the store's lock is released ({@link #stageBackup} under it, then
 * {@link #awaitBackup}): its force then no longer holds up the next pack's block writes, and puts that finish
 * together share one write of the newest state. A put still returns only once the backup holds its state or a newer
 * one, so the backup is as current for every returned put as when it was written under the lock.
 */
final class StateKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(PorBlobStore.class);

    private final BlockMapStore map;
    private final ClientStateFile backup;
    /** Present (beside the state backup) while blocks are written whose state is not committed yet. */
    private final Path writing;
    /** Between markWriting and clearWriting in this process: still set after a change that failed part-way. */
    private boolean changing;
    private PorClient client;
    /**
     * Guards {@link #staged} and {@link #stagedSeq}, held only to read or set them: a put staging its state under the
     * store's lock never waits for a backup write in progress. Taken inside {@link #fileLock}, never around it.
     */
    private final Object stageLock = new Object();
    /** The newest staged state and its number (staged states are numbered in commit order). */
    private ClientState staged;
    private long stagedSeq;
    /** Guards the backup file and {@link #writtenSeq}. */
    private final Object fileLock = new Object();
    /** The number of the newest state the backup file holds (or failed to take: then it was logged). */
    private long writtenSeq;

    /** {@code stateBackup} may be null: no backup, no marker. */
    StateKeeper(BlockMapStore map, Path stateBackup) {
        this.map = map;
        this.backup = stateBackup == null ? null : new ClientStateFile(stateBackup);
        this.writing = stateBackup == null ? null : stateBackup.resolveSibling(stateBackup.getFileName() + ".writing");
    }

    void attach(PorClient c) {
        this.client = c;
    }

    /**
     * Whether block writes were interrupted before their state was committed: seen at open (the marker), or in this
     * process, where a change failed part-way (a write the server applied and whose answer was lost).
     */
    boolean interrupted() {
        return changing || writing != null && Files.exists(writing);
    }

    /** Whether a change of this process failed after its block writes began (the store's lock held). */
    boolean changeFailed() {
        return changing;
    }

    /** A failed change's writes were undone (zeroed, every write answered): the client state is the server's. */
    void changeUndone() {
        changing = false;
    }

    /**
     * Marks block writes in progress (durably: a crash after the server applied some of them must be noticed at the
     * next open, also where the log state does not show it, inside a write batch).
     */
    void markWriting() throws IOException {
        changing = true;
        if (writing != null && !Files.exists(writing)) {
            try (FileChannel c = FileChannel.open(writing, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                c.force(true);
            }
        }
    }

    /** The client state of every write so far is committed: no resynchronisation is needed. */
    void clearWriting() throws IOException {
        changing = false;
        if (writing != null) {
            Files.deleteIfExists(writing);
        }
    }

    byte[] stateBytes() {
        return client.state().toBytes();
    }

    /** After a change that failed part-way: the server has moved on, so the stored state must follow. */
    void persistState() {
        try {
            map.saveState(stateBytes());
            saveBackup();
        } catch (RuntimeException e) {
            LOG.error("cannot store the PoR client state after a failed change; the next check may fail", e);
        }
    }

    /** Writes the backup now (the store's lock held). */
    void saveBackup() {
        awaitBackup(stageBackup());
    }

    /**
     * Under the store's lock, after a commit: the state to be written to the backup. Returns its number, for
     * {@link #awaitBackup}.
     */
    long stageBackup() {
        synchronized (stageLock) {
            staged = client.state();
            return ++stagedSeq;
        }
    }

    /**
     * Returns once the backup holds the state numbered {@code seq} or a newer one, writing the newest staged state
     * if it does not yet. Needs no store lock: a write by one caller serves every caller whose state was staged
     * before it.
     */
    void awaitBackup(long seq) {
        if (backup == null) {
            return;
        }
        synchronized (fileLock) {
            if (writtenSeq >= seq) {
                return;
            }
            ClientState newestState;
            long newest;
            synchronized (stageLock) {
                newestState = staged;
                newest = stagedSeq;
            }
            try {
                backup.save(newestState);
            } catch (UncheckedIOException e) {
                LOG.error("cannot write the PoR client state backup (the metadata store holds the state)", e);
            }
            writtenSeq = newest;
        }
    }
}

package io.coffer.sdk.meta.jdbc;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLite group commit. SQLite allows one writer at a time anyway, so the store keeps a single writer connection
 * guarded by a lock, with {@code BEGIN IMMEDIATE} transactions: writes serialize in the JVM instead of failing with
 * {@code SQLITE_BUSY}, and concurrent commits to one key trivially see each other. Every write joins a queue;
 * whichever writer thread gets the lock commits what is queued (up to {@link #MAX_GROUP} writes) in one transaction,
 * each write inside a savepoint of its own so that a failing write is undone alone, and then wakes their threads. A
 * group costs one WAL fsync instead of one per write, and the writes in it run one after the other exactly as
 * separate transactions would. No write returns before the transaction holding it is committed, so a crash loses
 * nothing that was acknowledged.
 */
final class GroupCommit {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcMetadataStore.class);

    /** At most this many SQLite writes share one transaction (and its fsync). */
    private static final int MAX_GROUP = 32;
    /** How long a queued SQLite write sleeps between looks at the writer lock, should no wake-up reach it. */
    private static final long GROUP_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Database db;
    private final Connection writer;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Writes waiting to be committed by whichever writer thread holds {@code writeLock}. */
    private final Queue<PendingWrite<?>> pendingWrites = new ConcurrentLinkedQueue<>();

    GroupCommit(Database db, Connection writer) {
        this.db = db;
        this.writer = writer;
    }

    /** Runs {@code work} as one write, committed alone or together with the writes queued beside it. */
    <T> T writeGrouped(String op, SqlWork<T> work) {
        PendingWrite<T> mine = new PendingWrite<>(op, work);
        pendingWrites.add(mine);
        boolean interrupted = false;
        while (!mine.done) {
            if (writeLock.tryLock()) {
                try {
                    while (!mine.done) {
                        if (!commitGroup()) {
                            // cannot happen: a write that is not done is still queued, and only lock holders take
                            throw new IllegalStateException("a queued metadata write went missing");
                        }
                    }
                } finally {
                    writeLock.unlock();
                }
                // a write queued while this group ran may have found the lock taken and gone to sleep
                PendingWrite<?> next = pendingWrites.peek();
                if (next != null) {
                    LockSupport.unpark(next.thread);
                }
            } else {
                LockSupport.parkNanos(this, GROUP_PARK_NANOS);
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return mine.result();
    }

    /**
     * Takes the queued writes (at most {@link #MAX_GROUP}) and commits them; the caller holds {@code writeLock}.
     * Returns whether there was any.
     */
    private boolean commitGroup() {
        List<PendingWrite<?>> group = new ArrayList<>();
        for (PendingWrite<?> p; group.size() < MAX_GROUP && (p = pendingWrites.poll()) != null; ) {
            group.add(p);
        }
        if (group.isEmpty()) {
            return false;
        }
        try {
            if (db.isClosed()) {
                CofferException f = CofferException.of(ErrorCode.INTERNAL_ERROR, "the metadata store is closed");
                group.forEach(p -> p.failure = f);
            } else if (group.size() == 1) {
                group.get(0).runAlone();
            } else {
                commitTogether(group);
            }
        } finally {
            group.forEach(PendingWrite::finish);
        }
        return true;
    }

    private void commitTogether(List<PendingWrite<?>> group) {
        try {
            writer.setAutoCommit(false);
            for (PendingWrite<?> p : group) {
                p.runInSavepoint();
            }
            writer.commit();
            db.countWriteTransaction();
        } catch (SQLException | RuntimeException | Error e) {
            // the transaction as a whole failed (or a savepoint could not be undone): nothing of it was committed
            Database.rollbackQuietly(writer);
            RuntimeException f = e instanceof SQLException s ? Database.failure("group commit", s)
                    : e instanceof RuntimeException r ? r : new IllegalStateException("group commit failed", e);
            for (PendingWrite<?> p : group) {
                p.value = null;
                if (p.failure == null) {
                    p.failure = f;
                }
            }
        } finally {
            try {
                writer.setAutoCommit(true);
            } catch (SQLException e) {
                LOG.debug("cannot reset autocommit", e);
            }
        }
    }

    /** How many writes are waiting for the writer. */
    int queued() {
        return pendingWrites.size();
    }

    /** Closes the writer connection once no group is being committed on it. */
    void closeWriter() {
        writeLock.lock();
        try {
            Database.closeQuietly(writer);
        } finally {
            writeLock.unlock();
        }
    }

    /** One write waiting in {@link #pendingWrites}: its work and, once its group is over, its outcome. */
    private final class PendingWrite<T> {
        final String op;
        final SqlWork<T> work;
        final Thread thread = Thread.currentThread();
        T value;
        Throwable failure;
        /** Set after the outcome, and read before it (the outcome's fields ride on this volatile). */
        volatile boolean done;

        PendingWrite(String op, SqlWork<T> work) {
            this.op = op;
            this.work = work;
        }

        void runAlone() {
            try {
                value = db.transaction(op, work);
            } catch (RuntimeException | Error e) {
                failure = e;
            }
        }

        /** Runs the work inside a savepoint of the group's transaction; its failure undoes only its own changes. */
        void runInSavepoint() throws SQLException {
            for (int attempt = 1; ; attempt++) {
                Savepoint sp = writer.setSavepoint();
                try {
                    value = work.run(writer);
                    writer.releaseSavepoint(sp);
                    return;
                } catch (RestartTransaction e) {
                    undo(sp);
                    if (attempt >= Database.MAX_ATTEMPTS) {
                        failure = Database.keptConflicting(op, null);
                        return;
                    }
                } catch (SQLException e) {
                    undo(sp);
                    failure = Database.failure(op, e);
                    return;
                } catch (RuntimeException | Error e) {
                    undo(sp);
                    failure = e;
                    return;
                }
            }
        }

        private void undo(Savepoint sp) throws SQLException {
            writer.rollback(sp);
            writer.releaseSavepoint(sp);
        }

        void finish() {
            done = true;
            LockSupport.unpark(thread);
        }

        T result() {
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            return value;
        }
    }
}

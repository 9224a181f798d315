package io.coffer.sdk.meta.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's connections and how work runs on them: a read on a borrowed connection, a write in a transaction,
 * restarted on serialization failures (SQLState 40001), deadlocks (40P01) and insert races
 * ({@link RestartTransaction}), a bounded number of times, after which the caller gets {@code CONFLICT_RETRY}.
 *
 * <p>SQLite: a single writer connection whose writes are committed in groups ({@link GroupCommit}) and a small fixed
 * pool of reader connections that see the last committed state. PostgreSQL: a HikariCP pool for both; transactions
 * run at the database's default isolation.
 */
final class Database {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcMetadataStore.class);

    /** How often one write is started before the caller gets {@code CONFLICT_RETRY}. */
    static final int MAX_ATTEMPTS = 12;

    final Dialect dialect;
    /** PostgreSQL's pool; null on SQLite. */
    private final HikariDataSource pool;
    /** SQLite's writer connection; null on PostgreSQL. */
    private final Connection writer;
    /** SQLite's group commit on {@link #writer}; null on PostgreSQL. */
    private final GroupCommit groupCommit;
    private final BlockingQueue<Connection> readers;
    private final List<Connection> allReaders;
    private final StatementCache statements;
    private final AtomicLong writeTransactions = new AtomicLong();
    private volatile boolean closed;

    private Database(Dialect dialect, HikariDataSource pool, Connection writer, List<Connection> readers) {
        this.dialect = dialect;
        this.pool = pool;
        this.writer = writer;
        this.groupCommit = writer == null ? null : new GroupCommit(this, writer);
        this.allReaders = List.copyOf(readers);
        this.readers = new ArrayBlockingQueue<>(Math.max(1, readers.size()), false, readers);
        List<Connection> connections = new ArrayList<>();
        if (writer != null) {
            connections.add(writer);
        }
        connections.addAll(readers);
        this.statements = new StatementCache(dialect, connections);
    }

    /** SQLite: the writer connection (in autocommit mode, its transactions begin IMMEDIATE) and the readers. */
    static Database sqlite(Connection writer, List<Connection> readers) {
        return new Database(Dialect.SQLITE, null, writer, readers);
    }

    /** PostgreSQL: every connection comes from {@code pool}. */
    static Database postgres(HikariDataSource pool) {
        return new Database(Dialect.POSTGRES, pool, null, List.of());
    }

    /** Prepares the statements of every connection of this database. */
    StatementCache statements() {
        return statements;
    }

    /** Runs {@code work} on a reader connection. */
    <T> T read(String op, SqlWork<T> work) {
        checkOpen();
        Connection c = null;
        try {
            c = borrowReader();
            return work.run(c);
        } catch (SQLException e) {
            throw failure(op, e);
        } finally {
            if (c != null) {
                returnReader(c);
            }
        }
    }

    private Connection borrowReader() throws SQLException {
        if (pool != null) {
            return pool.getConnection();
        }
        try {
            Connection c = readers.poll(30, TimeUnit.SECONDS);
            if (c == null) {
                throw CofferException.of(ErrorCode.SERVICE_UNAVAILABLE, "no metadata read connection available");
            }
            return c;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "interrupted waiting for a metadata connection", e);
        }
    }

    private void returnReader(Connection c) {
        if (pool != null) {
            closeQuietly(c);
        } else {
            readers.add(c);
        }
    }

    /**
     * Runs {@code work} in one transaction, restarting it on serialization failures, deadlocks and insert races. On
     * SQLite, writes that arrive while another is committing are committed together (see {@link GroupCommit}).
     */
    <T> T write(String op, SqlWork<T> work) {
        checkOpen();
        if (pool == null) {
            return groupCommit.writeGrouped(op, work);
        }
        return transaction(op, work);
    }

    /** {@code work} in a transaction of its own, retried; on SQLite the caller holds the group commit's lock. */
    <T> T transaction(String op, SqlWork<T> work) {
        for (int attempt = 1; ; attempt++) {
            Connection c = null;
            try {
                c = pool != null ? pool.getConnection() : writer;
                // SQLite begins its (IMMEDIATE) transaction here and holds no write lock between transactions
                c.setAutoCommit(false);
                T result = work.run(c);
                c.commit();
                writeTransactions.incrementAndGet();
                return result;
            } catch (RestartTransaction e) {
                rollbackQuietly(c);
                if (attempt >= MAX_ATTEMPTS) {
                    throw keptConflicting(op, null);
                }
                LOG.debug("{} raced a concurrent insert; restarting (attempt {})", op, attempt);
            } catch (SQLException e) {
                rollbackQuietly(c);
                if (!isRetryable(e)) {
                    throw failure(op, e);
                }
                if (attempt >= MAX_ATTEMPTS) {
                    throw keptConflicting(op, e);
                }
                LOG.debug("{} hit SQLState {}; restarting (attempt {})", op, e.getSQLState(), attempt);
            } catch (RuntimeException | Error e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                if (c != null) {
                    try {
                        c.setAutoCommit(true);
                    } catch (SQLException e) {
                        LOG.debug("cannot reset autocommit", e);
                    }
                    if (pool != null) {
                        closeQuietly(c);
                    }
                }
            }
            backoff(attempt);
        }
    }

    /** Counts a committed write transaction that {@link #transaction} did not run (a group commit's). */
    void countWriteTransaction() {
        writeTransactions.incrementAndGet();
    }

    /** How many write transactions have committed. */
    long writeTransactions() {
        return writeTransactions.get();
    }

    /** How many SQLite writes are waiting for the writer (0 on PostgreSQL). */
    int queuedWrites() {
        return groupCommit == null ? 0 : groupCommit.queued();
    }

    boolean isClosed() {
        return closed;
    }

    /** Closes every connection; a SQLite writer only once the group being committed is over. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (pool != null) {
            pool.close();
        }
        if (groupCommit != null) {
            groupCommit.closeWriter();
        }
        for (Connection reader : allReaders) {
            closeQuietly(reader);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "the metadata store is closed");
        }
    }

    /** A write that was restarted too often; {@code cause} may be null. */
    static CofferException keptConflicting(String op, SQLException cause) {
        return CofferException.of(ErrorCode.CONFLICT_RETRY, op + " kept conflicting with concurrent writes", cause);
    }

    static CofferException failure(String op, SQLException e) {
        return CofferException.of(ErrorCode.INTERNAL_ERROR, "metadata store failure in " + op
                + " (SQLState " + e.getSQLState() + ")", e);
    }

    private static void backoff(int attempt) {
        long maxMillis = Math.min(50, 1L << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "interrupted while retrying a metadata transaction", e);
        }
    }

    private static boolean isRetryable(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                String state = s.getSQLState();
                if ("40001".equals(state) || "40P01".equals(state)) {
                    return true;
                }
                SQLException next = s.getNextException();
                if (next != null && next != t && isRetryable(next)) {
                    return true;
                }
            }
        }
        return false;
    }

    static void rollbackQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.rollback();
        } catch (SQLException e) {
            LOG.warn("metadata rollback failed (SQLState {})", e.getSQLState());
        }
    }

    static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            LOG.debug("closing a metadata connection failed", e);
        }
    }
}

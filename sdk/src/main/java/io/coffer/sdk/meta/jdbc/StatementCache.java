package io.coffer.sdk.meta.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the store's statements. Where the dialect {@linkplain Dialect#cachesStatements asks for it} (SQLite), each
 * connection keeps the statements it prepared open for reuse: compiling the SQL took 11 % of a 4 KiB PUT's
 * worker-thread CPU in a profile (docs/BENCHMARKS.md); sqlite-jdbc keeps no statement cache (pgjdbc does, so
 * PostgreSQL connections are not listed). Each connection's cache is touched only by the thread that holds the
 * connection (the writer under the write lock, a reader while borrowed).
 */
final class StatementCache {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcMetadataStore.class);

    private final AtomicLong prepared = new AtomicLong();
    /** Per connection, its open statements by SQL; a connection that is not a key prepares afresh each time. */
    private final Map<Connection, Map<String, PreparedStatement>> cache;

    StatementCache(Dialect dialect, Collection<Connection> connections) {
        Map<Connection, Map<String, PreparedStatement>> byConnection = new IdentityHashMap<>();
        if (dialect.cachesStatements) {
            for (Connection c : connections) {
                byConnection.put(c, new StatementLru());
            }
        }
        this.cache = byConnection;
    }

    /** A statement of {@code sql} on {@code c}, reused where cached; closing it gives it back to the cache. */
    PreparedStatement prepare(Connection c, String sql) throws SQLException {
        prepared.incrementAndGet();
        Map<String, PreparedStatement> statements = cache.get(c);
        if (statements == null) {
            return c.prepareStatement(sql);
        }
        // taken out while in use, so that a second statement of the same SQL open at once gets its own
        PreparedStatement ps = statements.remove(sql);
        if (ps == null || ps.isClosed()) {
            ps = c.prepareStatement(sql);
        }
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, new Reused(statements, sql, ps));
    }

    /** How many statements {@link #prepare} has handed out (each executed once, or once as a batch). */
    long prepared() {
        return prepared.get();
    }

    private static void closeQuietly(Statement s) {
        try {
            s.close();
        } catch (SQLException e) {
            LOG.debug("closing a cached statement failed", e);
        }
    }

    /** Open statements of one SQLite connection by SQL, least recently used first; the eldest is closed past 64. */
    private static final class StatementLru extends LinkedHashMap<String, PreparedStatement> {
        private static final long serialVersionUID = 1L;
        private static final int MAX = 64;

        StatementLru() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= MAX) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    }

    /**
     * A cached statement lent to one {@code try} block: {@code close()} clears its parameters and returns it to the
     * connection's cache instead of closing it. A statement that threw is closed instead (its state is unknown).
     */
    private static final class Reused implements InvocationHandler {
        private final Map<String, PreparedStatement> cache;
        private final String sql;
        private final PreparedStatement ps;
        private boolean returned;
        private boolean failed;

        Reused(Map<String, PreparedStatement> cache, String sql, PreparedStatement ps) {
            this.cache = cache;
            this.sql = sql;
            this.ps = ps;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (args == null && name.equals("close")) {
                giveBack();
                return null;
            }
            if (args == null && name.equals("isClosed")) {
                return returned || ps.isClosed();
            }
            if (returned) {
                throw new SQLException("statement is closed");
            }
            try {
                return method.invoke(ps, args);
            } catch (InvocationTargetException e) {
                failed = true;
                throw e.getCause();
            }
        }

        private void giveBack() {
            if (returned) {
                return;
            }
            returned = true;
            try {
                if (!failed && !ps.isClosed()) {
                    ps.clearParameters();
                    ps.clearBatch();
                    if (cache.putIfAbsent(sql, ps) == null) {
                        return;
                    }
                }
            } catch (SQLException e) {
                LOG.debug("cannot reset a cached statement; closing it", e);
            }
            closeQuietly(ps);
        }
    }
}

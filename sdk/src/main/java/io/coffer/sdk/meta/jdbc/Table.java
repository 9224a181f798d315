package io.coffer.sdk.meta.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the operations on each table share: the database they run on, its dialect, and statements prepared through
 * the database's {@link StatementCache}.
 */
abstract class Table {
    final Database db;
    final Dialect dialect;

    Table(Database db) {
        this.db = db;
        this.dialect = db.dialect;
    }

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Every row of a query, mapped. */
    final <T> List<T> rows(Connection c, String sql, RowReader<T> reader, Object... args) throws SQLException {
        List<T> out = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
        }
        return out;
    }

    final PreparedStatement prepare(Connection c, String sql) throws SQLException {
        return db.statements().prepare(c, sql);
    }

    final boolean exists(Connection c, String sql, String arg) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            int index = i + 1;
            if (arg == null) {
                ps.setNull(index, Types.NULL);
            } else if (arg instanceof String s) {
                ps.setString(index, s);
            } else if (arg instanceof byte[] b) {
                ps.setBytes(index, b);
            } else if (arg instanceof Long l) {
                ps.setLong(index, l);
            } else if (arg instanceof Integer n) {
                ps.setInt(index, n);
            } else {
                throw new IllegalArgumentException("cannot bind " + arg.getClass());
            }
        }
    }

    static Object[] concat(Object[] head, Object... tail) {
        Object[] out = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }
}

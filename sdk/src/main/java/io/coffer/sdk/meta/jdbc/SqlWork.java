package io.coffer.sdk.meta.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** One unit of work on a connection: a read, or the body of a write transaction. */
@FunctionalInterface
interface SqlWork<T> {
    T run(Connection c) throws SQLException;
}

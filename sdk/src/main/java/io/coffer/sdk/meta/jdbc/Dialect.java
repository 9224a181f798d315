package io.coffer.sdk.meta.jdbc;

/**
 * What differs between the SQL dialects the store speaks; every other statement is shared, standard SQL plus
 * {@code INSERT ... ON CONFLICT}.
 */
enum Dialect {
    /** One writer connection (SQLite serializes writers anyway), so no row locks; no statement cache in the driver. */
    SQLITE("sqlite", "", "", "EXPLAIN QUERY PLAN ", false, true),
    /** Concurrent transactions that lock the rows they read to change; pgjdbc caches prepared statements itself. */
    POSTGRES("postgres", " FOR UPDATE", " FOR SHARE", "EXPLAIN ", true, false);

    /** The dialect's name in schema resource files ({@code schema-<name>-<version>.sql}). */
    final String name;
    /** Appended to a SELECT that reads rows the transaction will change. */
    final String forUpdate;
    /** Appended to a SELECT that reads a row which must not change until the transaction ends. */
    final String forShare;
    /** Prefixed to a query to get the database's plan for it. */
    final String explain;
    /** Whether writes lock the chunk rows they count references on (in id order, so that they cannot deadlock). */
    final boolean locksChunkRows;
    /** Whether the store keeps its prepared statements open for reuse (the driver does not). */
    final boolean cachesStatements;

    Dialect(String name, String forUpdate, String forShare, String explain, boolean locksChunkRows,
            boolean cachesStatements) {
        this.name = name;
        this.forUpdate = forUpdate;
        this.forShare = forShare;
        this.explain = explain;
        this.locksChunkRows = locksChunkRows;
        this.cachesStatements = cachesStatements;
    }
}

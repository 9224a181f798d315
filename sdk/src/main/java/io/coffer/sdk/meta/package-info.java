/**
 * The metadata store's interface and its internal records: objects, parts, chunk index and packs. The records it
 * shares with the public API (buckets, listing pages, uploads, preconditions, stats) are in {@code io.coffer.sdk}.
 * The JDBC implementation (SQLite or PostgreSQL) is in {@code io.coffer.sdk.meta.jdbc}.
 */
package io.coffer.sdk.meta;

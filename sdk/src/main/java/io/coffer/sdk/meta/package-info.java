/**
 * The metadata store's interface and records: buckets, objects, chunk index, packs and multipart uploads. The JDBC
 * implementation (SQLite or PostgreSQL) is in {@code io.coffer.sdk.meta.jdbc}.
 */
package io.coffer.sdk.meta;

/** The metadata store: buckets, objects, chunk index, packs and multipart uploads, over JDBC (SQLite or PostgreSQL). */
package io.coffer.sdk.meta;

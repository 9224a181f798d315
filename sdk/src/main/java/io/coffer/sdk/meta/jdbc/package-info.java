/**
 * The metadata store over JDBC: {@link io.coffer.sdk.meta.jdbc.JdbcMetadataStore} opens it on SQLite or PostgreSQL;
 * the other classes are its parts, one concern each.
 */
package io.coffer.sdk.meta.jdbc;


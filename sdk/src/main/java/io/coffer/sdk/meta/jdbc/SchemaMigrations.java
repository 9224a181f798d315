package io.coffer.sdk.meta.jdbc;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema's versions, applied in order when a store opens and recorded in {@code schema_version}. Version
 * {@code n} is the resource files {@code schema-sqlite-<n>.sql} and {@code schema-postgres-<n>.sql} beside this
 * class; a store refuses to open a database whose schema is newer than it knows.
 */
final class SchemaMigrations {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcMetadataStore.class);

    /** What each schema version changed, oldest first. A new migration is one more line here and its two files. */
    private static final List<String> VERSIONS = List.of(
            "buckets, objects, uploads, parts, packs and chunks",
            "objects.upload_id: the upload a current object version was completed from",
            "chunks.plain_length: a chunk's plaintext length, for storage statistics",
            "block_map, block_free, block_state: the map of a store kept in numbered blocks (BlockMapStore)",
            "bucket_configs: a bucket's configuration documents (tagging, CORS)",
            "leases: which gateway runs a maintenance job (gc) until when",
            "object_versions, objects.null_version: noncurrent versions and delete markers of versioned buckets",
            "object_locks: the Object Lock (retention, legal hold) of object versions");

    /** The newest schema version this code knows. */
    static final int SCHEMA_VERSION = VERSIONS.size();

    private SchemaMigrations() {
    }

    /** Brings the schema up to {@link #SCHEMA_VERSION}; {@code c} is not in autocommit mode. */
    static void migrate(Dialect dialect, Connection c) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                migrateOnce(dialect, c);
                return;
            } catch (SQLException e) {
                c.rollback();
                // another process may have applied the same migration concurrently: look again once
                if (attempt >= 2) {
                    throw e;
                }
            }
        }
    }

    private static void migrateOnce(Dialect dialect, Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL PRIMARY KEY, "
                    + "applied BIGINT NOT NULL)");
        }
        c.commit();
        int current;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_version")) {
            rs.next();
            current = rs.getInt(1);
        }
        c.commit();
        if (current > SCHEMA_VERSION) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "the metadata schema is version " + current
                    + ", newer than this Coffer supports (" + SCHEMA_VERSION + "); upgrade Coffer");
        }
        for (int v = current + 1; v <= SCHEMA_VERSION; v++) {
            try (Statement s = c.createStatement()) {
                for (String sql : schemaStatements(dialect.name, v)) {
                    s.execute(sql);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO schema_version (version, applied) VALUES (?, ?)")) {
                ps.setInt(1, v);
                ps.setLong(2, System.currentTimeMillis());
                ps.executeUpdate();
            }
            c.commit();
            LOG.info("applied {} metadata schema version {}", dialect.name, v);
        }
    }

    /** The statements of one schema file: comment lines dropped, split at semicolons that end a line. */
    static List<String> schemaStatements(String dialectName, int version) {
        String resource = "schema-" + dialectName + "-" + version + ".sql";
        String text;
        try (InputStream in = SchemaMigrations.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing schema resource " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read schema resource " + resource, e);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }
}

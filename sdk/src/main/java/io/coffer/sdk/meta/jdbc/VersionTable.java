package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.decodeRefs;
import static io.coffer.sdk.meta.jdbc.Columns.encodeRefs;
import static io.coffer.sdk.meta.jdbc.Columns.millis;
import static io.coffer.sdk.meta.jdbc.Columns.string;
import static io.coffer.sdk.meta.jdbc.Columns.utf8;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.jdbc.ListingWalk.Marker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Versions of versioned buckets besides the current one (schema 6): noncurrent versions and delete markers in
 * {@code object_versions}, a key's newest first (smallest {@code version_order}). The current version of a key that
 * is not deleted stays in {@code objects}, so reads and ListObjects are as for an unversioned bucket. Invariant: a key
 * without an {@code objects} row has, as its newest row here, a delete marker or no row at all.
 */
final class VersionTable extends Table {
    /** The columns of both tables that make an {@link ObjectRecord}, in its order. */
    static final String RECORD_COLUMNS =
            "bucket, key_utf8, version_id, size, etag, last_modified, attributes, manifest, chunk_refs, null_version";
    private static final String VERSION_COLUMNS = RECORD_COLUMNS + ", delete_marker, version_order";
    /** The position of a key's current ({@code objects}) row in a listing marker: before every noncurrent one. */
    private static final String CURRENT = "c";

    private final BucketTable bucketTable;
    private final ChunkTable chunkTable;

    VersionTable(Database db, BucketTable bucketTable, ChunkTable chunkTable) {
        super(db);
        this.bucketTable = bucketTable;
        this.chunkTable = chunkTable;
    }

    /** Maps a row of {@link #RECORD_COLUMNS} (and, when {@code marker} columns follow, its delete marker flag). */
    static ObjectRecord record(ResultSet rs, boolean withMarker) throws SQLException {
        return new ObjectRecord(rs.getString(1), string(rs.getBytes(2)), rs.getString(3), rs.getLong(4),
                rs.getString(5), Instant.ofEpochMilli(rs.getLong(6)), rs.getBytes(7), rs.getBytes(8),
                decodeRefs(rs.getBytes(9)), rs.getInt(10) == 1, withMarker && rs.getInt(11) == 1);
    }

    /** Whether a record has the version id a client names ({@code null}: the null version). */
    static boolean hasClientId(ObjectRecord r, String clientVersionId) {
        return r.clientVersionId().equals(clientVersionId);
    }

    /** Adds {@code r} as its key's newest noncurrent version (or current delete marker), keeping its references. */
    void append(Connection c, ObjectRecord r) throws SQLException {
        byte[] key = utf8(r.key());
        long order = 0;
        try (PreparedStatement ps = prepare(c,
                "SELECT MIN(version_order) FROM object_versions WHERE bucket = ? AND key_utf8 = ?")) {
            bind(ps, r.bucket(), key);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    long min = rs.getLong(1);
                    order = rs.wasNull() ? 0 : min - 1;
                }
            }
        }
        try (PreparedStatement ps = prepare(c, "INSERT INTO object_versions (bucket, key_utf8, version_order, "
                + "version_id, null_version, delete_marker, size, etag, last_modified, attributes, manifest, "
                + "chunk_refs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            bind(ps, r.bucket(), key, order, r.versionId(), r.nullVersion() ? 1 : 0, r.deleteMarker() ? 1 : 0,
                    r.size(), r.etag(), millis(r.lastModified()), r.attributes(), r.manifest(),
                    encodeRefs(r.chunkRefs()));
            if (ps.executeUpdate() != 1) {
                // another transaction added a version of the key meanwhile: start over with its order
                throw new RestartTransaction();
            }
        }
    }

    /** The key's null version among its noncurrent versions (locked for update), if it has one. */
    Optional<ObjectRecord> nullVersion(Connection c, String bucket, byte[] key) throws SQLException {
        return one(c, "SELECT " + VERSION_COLUMNS + " FROM object_versions WHERE bucket = ? AND key_utf8 = ? "
                + "AND null_version = 1" + dialect.forUpdate, bucket, key);
    }

    /** Deletes a noncurrent version row and releases its references (the caller locked the chunk rows). */
    void remove(Connection c, ObjectRecord r) throws SQLException {
        try (PreparedStatement ps = prepare(c, "DELETE FROM object_versions WHERE version_id = ?")) {
            bind(ps, r.versionId());
            if (ps.executeUpdate() != 1) {
                throw new RestartTransaction();
            }
        }
        chunkTable.releaseRefs(c, r.chunkRefs());
    }

    Optional<ObjectRecord> objectVersion(String bucket, String key, String clientVersionId) {
        byte[] k = utf8(key);
        return db.read("objectVersion", c -> find(c, bucket, k, clientVersionId, ""));
    }

    /**
     * Inside a write: the version with the client's version id (null: the key's current row), its row locked against
     * concurrent writes to it, as a delete of it locks it.
     */
    Optional<ObjectRecord> findForUpdate(Connection c, String bucket, String key, String clientVersionId)
            throws SQLException {
        byte[] k = utf8(key);
        return clientVersionId == null ? current(c, bucket, k, dialect.forUpdate)
                : find(c, bucket, k, clientVersionId, dialect.forUpdate);
    }

    /**
     * Replaces the attributes of the version with the client's version id (null: the key's current row) under its row
     * lock: {@code change} gets the version and returns its new attributes, or throws to refuse. Its id, manifest
     * and references stay. Empty, changing nothing, if there is no such version.
     */
    Optional<ObjectRecord> updateAttributes(String bucket, String key, String clientVersionId,
                                            Function<ObjectRecord, byte[]> change) {
        byte[] k = utf8(key);
        return db.write("updateObjectAttributes", c -> {
            Optional<ObjectRecord> version = findForUpdate(c, bucket, key, clientVersionId);
            if (version.isEmpty()) {
                return version;
            }
            ObjectRecord v = version.get();
            byte[] attributes = change.apply(v);
            int updated;
            try (PreparedStatement ps = prepare(c, "UPDATE objects SET attributes = ? WHERE bucket = ? AND "
                    + "key_utf8 = ? AND version_id = ?")) {
                bind(ps, attributes, bucket, k, v.versionId());
                updated = ps.executeUpdate();
            }
            if (updated == 0) {
                try (PreparedStatement ps = prepare(c, "UPDATE object_versions SET attributes = ? WHERE "
                        + "version_id = ? AND bucket = ? AND key_utf8 = ?")) {
                    bind(ps, attributes, v.versionId(), bucket, k);
                    updated = ps.executeUpdate();
                }
            }
            if (updated != 1) {
                throw new RestartTransaction();
            }
            return Optional.of(new ObjectRecord(v.bucket(), v.key(), v.versionId(), v.size(), v.etag(),
                    v.lastModified(), attributes, v.manifest(), v.chunkRefs(), v.nullVersion(), v.deleteMarker()));
        });
    }

    /** The current row (as {@code current}) or the noncurrent row with the client's version id. */
    private Optional<ObjectRecord> find(Connection c, String bucket, byte[] key, String clientVersionId, String lock)
            throws SQLException {
        Optional<ObjectRecord> current = current(c, bucket, key, lock);
        if (current.isPresent() && hasClientId(current.get(), clientVersionId)) {
            return current;
        }
        return noncurrent(c, bucket, key, clientVersionId, lock);
    }

    private Optional<ObjectRecord> current(Connection c, String bucket, byte[] key, String lock)
            throws SQLException {
        try (PreparedStatement ps = prepare(c, "SELECT " + RECORD_COLUMNS
                + " FROM objects WHERE bucket = ? AND key_utf8 = ?" + lock)) {
            bind(ps, bucket, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(record(rs, false)) : Optional.empty();
            }
        }
    }

    private Optional<ObjectRecord> noncurrent(Connection c, String bucket, byte[] key, String clientVersionId,
                                              String lock) throws SQLException {
        if (clientVersionId.equals(BucketVersioning.NULL_VERSION)) {
            return lock.isEmpty() ? one(c, "SELECT " + VERSION_COLUMNS + " FROM object_versions WHERE bucket = ? "
                    + "AND key_utf8 = ? AND null_version = 1", bucket, key) : nullVersion(c, bucket, key);
        }
        return one(c, "SELECT " + VERSION_COLUMNS + " FROM object_versions WHERE version_id = ? AND bucket = ? "
                + "AND key_utf8 = ? AND null_version = 0" + lock, clientVersionId, bucket, key);
    }

    private Optional<ObjectRecord> one(Connection c, String sql, Object... args) throws SQLException {
        List<ObjectRecord> found = rows(c, sql, rs -> record(rs, true), args);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** What a permanent delete runs, in its transaction, on the version it is about to remove; may throw to refuse. */
    @FunctionalInterface
    interface BeforeRemoval {
        void check(Connection c, ObjectRecord version) throws SQLException;
    }

    Optional<ObjectRecord> deleteVersion(String bucket, String key, String clientVersionId,
                                         BeforeRemoval beforeRemoval) {
        byte[] k = utf8(key);
        return db.write("deleteVersion", c -> {
            Optional<ObjectRecord> current = current(c, bucket, k, dialect.forUpdate);
            if (current.isPresent() && hasClientId(current.get(), clientVersionId)) {
                beforeRemoval.check(c, current.get());
                chunkTable.lockChunks(c, current.get().chunkRefs());
                try (PreparedStatement ps = prepare(c, "DELETE FROM objects WHERE bucket = ? AND key_utf8 = ?")) {
                    bind(ps, bucket, k);
                    if (ps.executeUpdate() != 1) {
                        throw new RestartTransaction();
                    }
                }
                chunkTable.releaseRefs(c, current.get().chunkRefs());
                promoteNewest(c, bucket, k);
                return current;
            }
            Optional<ObjectRecord> version = noncurrent(c, bucket, k, clientVersionId, dialect.forUpdate);
            if (version.isEmpty()) {
                return version;
            }
            beforeRemoval.check(c, version.get());
            chunkTable.lockChunks(c, version.get().chunkRefs());
            remove(c, version.get());
            if (current.isEmpty()) {
                promoteNewest(c, bucket, k);
            }
            return version;
        });
    }

    /**
     * Keeps the invariant after a key lost its current row or its newest noncurrent one: when the key has no current
     * row and its newest version is an object, not a delete marker, that version becomes current.
     */
    private void promoteNewest(Connection c, String bucket, byte[] key) throws SQLException {
        Optional<ObjectRecord> newest = one(c, "SELECT " + VERSION_COLUMNS + " FROM object_versions WHERE bucket = ? "
                + "AND key_utf8 = ? ORDER BY version_order LIMIT 1" + dialect.forUpdate, bucket, key);
        if (newest.isEmpty() || newest.get().deleteMarker()) {
            return;
        }
        ObjectRecord r = newest.get();
        try (PreparedStatement ps = prepare(c, "DELETE FROM object_versions WHERE version_id = ?")) {
            bind(ps, r.versionId());
            if (ps.executeUpdate() != 1) {
                throw new RestartTransaction();
            }
        }
        try (PreparedStatement ps = prepare(c, "INSERT INTO objects (bucket, key_utf8, version_id, size, etag, "
                + "last_modified, attributes, manifest, chunk_refs, null_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (bucket, key_utf8) DO NOTHING")) {
            bind(ps, bucket, key, r.versionId(), r.size(), r.etag(), millis(r.lastModified()), r.attributes(),
                    r.manifest(), encodeRefs(r.chunkRefs()), r.nullVersion() ? 1 : 0);
            if (ps.executeUpdate() != 1) {
                throw new RestartTransaction();
            }
        }
    }

    // ---- ListObjectVersions

    /** One listed row: the version, its key's bytes and its position among the key's rows (a listing marker). */
    private record Row(ObjectVersion version, byte[] key, String position) {
    }

    VersionPage listVersions(String bucket, String prefix, String delimiter, String keyMarker,
                             String versionIdMarker, int maxKeys) {
        byte[] p = prefix == null ? new byte[0] : utf8(prefix);
        byte[] d = delimiter == null || delimiter.isEmpty() ? null : utf8(delimiter);
        byte[] km = keyMarker == null || keyMarker.isEmpty() ? null : utf8(keyMarker);
        return db.read("listVersions", c -> {
            if (bucketTable.bucket(c, bucket, "").isEmpty()) {
                throw CofferException.noSuchBucket(bucket);
            }
            Marker start = Marker.atLeast(p);
            if (km != null && Arrays.compareUnsigned(km, p) >= 0) {
                start = Marker.after(km, versionIdMarker == null ? null
                        : position(c, bucket, km, versionIdMarker));
            }
            ListingWalk<Row> walk = ListingWalk.walk(p, d, km, start, maxKeys,
                    (lower, upper, limit) -> fetch(c, bucket, lower, upper, limit), Row::key, Row::position);
            List<String> prefixes = walk.prefixes.stream().map(Columns::string).toList();
            List<ObjectVersion> versions = walk.items.stream().map(Row::version).toList();
            String nextVersion = walk.truncated && walk.lastUploadId != null && !versions.isEmpty()
                    ? versions.get(versions.size() - 1).versionId() : null;
            return new VersionPage(versions, prefixes, walk.truncated, walk.truncated ? string(walk.lastKey) : null,
                    nextVersion);
        });
    }

    /** The listing position of a version of {@code key}; null (after every version of the key) if it has none. */
    private String position(Connection c, String bucket, byte[] key, String clientVersionId) throws SQLException {
        Optional<ObjectRecord> current = current(c, bucket, key, "");
        if (current.isPresent() && hasClientId(current.get(), clientVersionId)) {
            return CURRENT;
        }
        String sql = clientVersionId.equals(BucketVersioning.NULL_VERSION)
                ? "SELECT version_order FROM object_versions WHERE bucket = ? AND key_utf8 = ? AND null_version = 1"
                : "SELECT version_order FROM object_versions WHERE version_id = ? AND bucket = ? AND key_utf8 = ? "
                        + "AND null_version = 0";
        Object[] args = clientVersionId.equals(BucketVersioning.NULL_VERSION) ? new Object[] {bucket, key}
                : new Object[] {clientVersionId, bucket, key};
        List<Long> found = rows(c, sql, rs -> rs.getLong(1), args);
        return found.isEmpty() ? null : "v" + found.get(0);
    }

    /**
     * Up to {@code limit} rows from {@code lower}, by key, each key's current row first and then its noncurrent ones
     * newest first: one range seek in each table, merged. A marker's position is {@link #CURRENT} or {@code v<order>}.
     */
    private List<Row> fetch(Connection c, String bucket, Marker lower, byte[] upper, int limit) throws SQLException {
        List<Object> args = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT * FROM (SELECT key_utf8, 0 AS src, 0 AS ord, version_id, "
                + "null_version, 0 AS delete_marker, size, etag, last_modified, 1 AS latest FROM objects "
                + "WHERE bucket = ?");
        args.add(bucket);
        String position = lower.uploadIdAfter();
        if (position != null) {
            sql.append(" AND key_utf8 > ?");
            args.add(lower.key());
        } else if (lower.bound()) {
            sql.append(lower.inclusive() ? " AND key_utf8 >= ?" : " AND key_utf8 > ?");
            args.add(lower.key());
        }
        upperBound(sql, args, upper, "key_utf8");
        sql.append(" ORDER BY key_utf8 LIMIT ?) cur UNION ALL SELECT * FROM (SELECT v.key_utf8, 1, v.version_order, "
                + "v.version_id, v.null_version, v.delete_marker, v.size, v.etag, v.last_modified, CASE WHEN "
                + "v.delete_marker = 1 AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.bucket = v.bucket "
                + "AND o.key_utf8 = v.key_utf8) AND NOT EXISTS (SELECT 1 FROM object_versions w WHERE "
                + "w.bucket = v.bucket AND w.key_utf8 = v.key_utf8 AND w.version_order < v.version_order) "
                + "THEN 1 ELSE 0 END FROM object_versions v WHERE v.bucket = ?");
        args.add(limit);
        args.add(bucket);
        if (position != null && position.equals(CURRENT)) {
            sql.append(" AND v.key_utf8 >= ?");
            args.add(lower.key());
        } else if (position != null) {
            sql.append(" AND (v.key_utf8 > ? OR (v.key_utf8 = ? AND v.version_order > ?))");
            args.add(lower.key());
            args.add(lower.key());
            args.add(Long.parseLong(position.substring(1)));
        } else if (lower.bound()) {
            sql.append(lower.inclusive() ? " AND v.key_utf8 >= ?" : " AND v.key_utf8 > ?");
            args.add(lower.key());
        }
        upperBound(sql, args, upper, "v.key_utf8");
        sql.append(" ORDER BY v.key_utf8, v.version_order LIMIT ?) old ORDER BY 1, 2, 3 LIMIT ?");
        args.add(limit);
        args.add(limit);
        return rows(c, sql.toString(), VersionTable::row, args.toArray());
    }

    private static void upperBound(StringBuilder sql, List<Object> args, byte[] upper, String column) {
        if (upper != null) {
            sql.append(" AND ").append(column).append(" < ?");
            args.add(upper);
        }
    }

    private static Row row(ResultSet rs) throws SQLException {
        byte[] key = rs.getBytes(1);
        boolean current = rs.getInt(2) == 0;
        boolean nullVersion = rs.getInt(5) == 1;
        String versionId = nullVersion ? BucketVersioning.NULL_VERSION : rs.getString(4);
        ObjectVersion v = new ObjectVersion(string(key), versionId, rs.getInt(10) == 1, rs.getInt(6) == 1,
                rs.getLong(7), rs.getString(8), Instant.ofEpochMilli(rs.getLong(9)));
        return new Row(v, key, current ? CURRENT : "v" + rs.getLong(3));
    }
}

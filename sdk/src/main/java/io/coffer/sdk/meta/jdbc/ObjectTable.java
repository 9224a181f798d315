package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.encodeRefs;
import static io.coffer.sdk.meta.jdbc.Columns.millis;
import static io.coffer.sdk.meta.jdbc.Columns.string;
import static io.coffer.sdk.meta.jdbc.Columns.utf8;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.NewChunks;
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

/**
 * Objects: the current version of each key, committed (replacing what was there or, in a versioned bucket, moving it
 * to {@link VersionTable}; for a completed multipart upload, also the upload), looked up, deleted and listed.
 */
final class ObjectTable extends Table {
    private static final String OBJECT_COLUMNS = VersionTable.RECORD_COLUMNS;

    private final BucketTable bucketTable;
    private final UploadTable uploadTable;
    private final ChunkTable chunkTable;
    private final VersionTable versions;

    ObjectTable(Database db, BucketTable bucketTable, UploadTable uploadTable, ChunkTable chunkTable,
                VersionTable versions) {
        super(db);
        this.bucketTable = bucketTable;
        this.uploadTable = uploadTable;
        this.chunkTable = chunkTable;
        this.versions = versions;
    }

    Optional<ObjectRecord> object(String bucket, String key) {
        byte[] k = utf8(key);
        return db.read("object", c -> object(c, bucket, k, ""));
    }

    Optional<ObjectRecord> completedUpload(String bucket, String key, String uploadId) {
        byte[] k = utf8(key);
        return db.read("completedUpload", c -> {
            try (PreparedStatement ps = prepare(c, "SELECT " + OBJECT_COLUMNS
                    + " FROM objects WHERE bucket = ? AND key_utf8 = ? AND upload_id = ?")) {
                bind(ps, bucket, k, uploadId);
                return objectRecord(ps);
            }
        });
    }

    private Optional<ObjectRecord> object(Connection c, String bucket, byte[] key, String lock) throws SQLException {
        try (PreparedStatement ps = prepare(c, "SELECT " + OBJECT_COLUMNS
                + " FROM objects WHERE bucket = ? AND key_utf8 = ?" + lock)) {
            ps.setString(1, bucket);
            ps.setBytes(2, key);
            return objectRecord(ps);
        }
    }

    /** Runs a query for at most one row of {@link #OBJECT_COLUMNS}. */
    private static Optional<ObjectRecord> objectRecord(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            return Optional.of(VersionTable.record(rs, false));
        }
    }

    Optional<ObjectRecord> commitObject(ObjectRecord object, NewChunks newChunks, Precondition precondition,
                                        String completesUpload, BucketVersioning versioning) {
        byte[] key = utf8(object.key());
        NewChunks chunks = newChunks == null ? NewChunks.NONE : newChunks;
        Precondition pre = precondition == null ? Precondition.NONE : precondition;
        return db.write("commitObject", c -> {
            bucketTable.requireBucket(c, object.bucket());
            Optional<ObjectRecord> existing = object(c, object.bucket(), key, dialect.forUpdate);
            checkPrecondition(pre, existing, object);
            List<ChunkId> partRefs = List.of();
            if (completesUpload != null) {
                if (!uploadTable.uploadExists(c, completesUpload, dialect.forUpdate)) {
                    throw CofferException.noSuchUpload(completesUpload);
                }
                partRefs = uploadTable.partRefs(c, completesUpload);
            }
            boolean keep = existing.isPresent() && keepsCurrent(versioning, existing.get());
            Optional<ObjectRecord> oldNull = versioning == BucketVersioning.SUSPENDED
                    ? versions.nullVersion(c, object.bucket(), key) : Optional.empty();
            chunkTable.registerChunks(c, chunks.packs(), chunks.chunks());
            chunkTable.lockChunks(c, object.chunkRefs(), existing.map(ObjectRecord::chunkRefs).orElse(List.of()),
                    partRefs, oldNull.map(ObjectRecord::chunkRefs).orElse(List.of()));
            chunkTable.addRefs(c, object.chunkRefs());
            if (keep) {
                versions.append(c, existing.get());
            }
            Object[] values = {object.versionId(), object.size(), object.etag(), millis(object.lastModified()),
                object.attributes(), object.manifest(), encodeRefs(object.chunkRefs()), completesUpload,
                object.nullVersion() ? 1 : 0};
            Optional<ObjectRecord> removed = Optional.empty();
            if (existing.isPresent()) {
                try (PreparedStatement ps = prepare(c, "UPDATE objects SET version_id = ?, size = ?, etag = ?, "
                        + "last_modified = ?, attributes = ?, manifest = ?, chunk_refs = ?, upload_id = ?, "
                        + "null_version = ? WHERE bucket = ? AND key_utf8 = ?")) {
                    bind(ps, concat(values, object.bucket(), key));
                    if (ps.executeUpdate() != 1) {
                        throw new RestartTransaction();
                    }
                }
                if (!keep) {
                    chunkTable.releaseRefs(c, existing.get().chunkRefs());
                    removed = existing;
                }
            } else {
                try (PreparedStatement ps = prepare(c, "INSERT INTO objects (version_id, size, etag, last_modified, "
                        + "attributes, manifest, chunk_refs, upload_id, null_version, bucket, key_utf8) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (bucket, key_utf8) DO NOTHING")) {
                    bind(ps, concat(values, object.bucket(), key));
                    if (ps.executeUpdate() != 1) {
                        // another commit inserted the key after our look: start over and replace it properly
                        throw new RestartTransaction();
                    }
                }
            }
            if (oldNull.isPresent()) {
                versions.remove(c, oldNull.get());
                removed = oldNull;
            }
            if (completesUpload != null) {
                uploadTable.deleteUpload(c, completesUpload, partRefs);
            }
            return removed;
        });
    }

    /**
     * Whether a write or delete under {@code versioning} keeps the current version as a noncurrent one: always when
     * versioning is enabled, when suspended unless it is the null version (which is replaced), never when unversioned.
     */
    private static boolean keepsCurrent(BucketVersioning versioning, ObjectRecord current) {
        return versioning == BucketVersioning.ENABLED
                || versioning == BucketVersioning.SUSPENDED && !current.nullVersion();
    }

    private static void checkPrecondition(Precondition pre, Optional<ObjectRecord> existing, ObjectRecord object) {
        if (pre.ifNoneMatch() && existing.isPresent()) {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED,
                    "At least one of the preconditions you specified did not hold (If-None-Match)");
        }
        if (pre.ifMatch() != null) {
            if (existing.isEmpty()) {
                throw CofferException.noSuchKey(object.bucket(), object.key());
            }
            if (!ETags.matches(pre.ifMatch(), existing.get().etag())) {
                throw CofferException.of(ErrorCode.PRECONDITION_FAILED,
                        "At least one of the preconditions you specified did not hold (If-Match)");
            }
        }
    }

    Optional<ObjectRecord> deleteObject(String bucket, String key, String ifMatch, BucketVersioning versioning,
                                        ObjectRecord marker) {
        byte[] k = utf8(key);
        if (versioning != BucketVersioning.UNVERSIONED) {
            if (marker == null || !marker.deleteMarker() || !marker.bucket().equals(bucket)
                    || !marker.key().equals(key)) {
                throw new IllegalArgumentException("a versioned delete adds a delete marker of its key");
            }
            return db.write("deleteObject", c -> deleteVersioned(c, bucket, k, ifMatch, versioning, marker));
        }
        return db.write("deleteObject", c -> {
            Optional<ObjectRecord> existing = object(c, bucket, k, dialect.forUpdate);
            checkIfMatch(ifMatch, existing, bucket, key);
            if (existing.isEmpty()) {
                return existing;
            }
            try (PreparedStatement ps = prepare(c, "DELETE FROM objects WHERE bucket = ? AND key_utf8 = ?")) {
                bind(ps, bucket, k);
                if (ps.executeUpdate() != 1) {
                    throw new RestartTransaction();
                }
            }
            chunkTable.lockChunks(c, existing.get().chunkRefs());
            chunkTable.releaseRefs(c, existing.get().chunkRefs());
            return existing;
        });
    }

    private Optional<ObjectRecord> deleteVersioned(Connection c, String bucket, byte[] key, String ifMatch,
                                                   BucketVersioning versioning, ObjectRecord marker)
            throws SQLException {
        bucketTable.requireBucket(c, bucket);
        Optional<ObjectRecord> existing = object(c, bucket, key, dialect.forUpdate);
        checkIfMatch(ifMatch, existing, bucket, marker.key());
        boolean keep = existing.isPresent() && keepsCurrent(versioning, existing.get());
        Optional<ObjectRecord> oldNull = versioning == BucketVersioning.SUSPENDED
                ? versions.nullVersion(c, bucket, key) : Optional.empty();
        chunkTable.lockChunks(c, existing.filter(e -> !keep).map(ObjectRecord::chunkRefs).orElse(List.of()),
                oldNull.map(ObjectRecord::chunkRefs).orElse(List.of()));
        Optional<ObjectRecord> removed = Optional.empty();
        if (existing.isPresent()) {
            try (PreparedStatement ps = prepare(c, "DELETE FROM objects WHERE bucket = ? AND key_utf8 = ?")) {
                bind(ps, bucket, key);
                if (ps.executeUpdate() != 1) {
                    throw new RestartTransaction();
                }
            }
            if (keep) {
                versions.append(c, existing.get());
            } else {
                chunkTable.releaseRefs(c, existing.get().chunkRefs());
                removed = existing;
            }
        }
        if (oldNull.isPresent()) {
            versions.remove(c, oldNull.get());
            removed = oldNull;
        }
        versions.append(c, marker);
        return removed;
    }

    private static void checkIfMatch(String ifMatch, Optional<ObjectRecord> existing, String bucket, String key) {
        if (ifMatch == null) {
            return;
        }
        if (existing.isEmpty()) {
            throw CofferException.noSuchKey(bucket, key);
        }
        if (!ETags.matches(ifMatch, existing.get().etag())) {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED,
                    "At least one of the preconditions you specified did not hold (If-Match)");
        }
    }

    ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        byte[] p = prefix == null ? new byte[0] : utf8(prefix);
        byte[] d = delimiter == null || delimiter.isEmpty() ? null : utf8(delimiter);
        byte[] a = after == null || after.isEmpty() ? null : utf8(after);
        return db.read("listObjects", c -> {
            if (bucketTable.bucket(c, bucket, "").isEmpty()) {
                throw CofferException.noSuchBucket(bucket);
            }
            Marker start = a != null && Arrays.compareUnsigned(a, p) >= 0 ? Marker.after(a, null) : Marker.atLeast(p);
            ListingWalk<ObjectSummary> walk = ListingWalk.walk(p, d, a, start, maxKeys,
                    (lower, upper, limit) -> fetchObjects(c, bucket, lower, upper, limit),
                    s -> utf8(s.key()), s -> null);
            List<String> prefixes = walk.prefixes.stream().map(Columns::string).toList();
            return new ObjectPage(walk.items, prefixes, walk.truncated,
                    walk.truncated ? string(walk.lastKey) : null);
        });
    }

    private List<ObjectSummary> fetchObjects(Connection c, String bucket, Marker lower, byte[] upper, int limit)
            throws SQLException {
        List<ObjectSummary> out = new ArrayList<>(Math.min(limit, 1024));
        try (PreparedStatement ps = prepare(c, objectRangeSql(lower, upper != null))) {
            int i = 1;
            ps.setString(i++, bucket);
            if (lower.bound()) {
                ps.setBytes(i++, lower.key());
            }
            if (upper != null) {
                ps.setBytes(i++, upper);
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ObjectSummary(string(rs.getBytes(1)), rs.getLong(2), rs.getString(3),
                            Instant.ofEpochMilli(rs.getLong(4))));
                }
            }
        }
        return out;
    }

    /** The range query of object listings; {@code lower} is {@code key > ?} (or {@code >=} for an inclusive seek). */
    private static String objectRangeSql(Marker lower, boolean bounded) {
        StringBuilder sql = new StringBuilder(
                "SELECT key_utf8, size, etag, last_modified FROM objects WHERE bucket = ?");
        if (lower.bound()) {
            sql.append(lower.inclusive() ? " AND key_utf8 >= ?" : " AND key_utf8 > ?");
        }
        if (bounded) {
            sql.append(" AND key_utf8 < ?");
        }
        return sql.append(" ORDER BY key_utf8 LIMIT ?").toString();
    }

    /**
     * The database's plan for the range query that {@link #listObjects} issues for one seek with {@code prefix}
     * (for tests that check listings seek an index rather than scan).
     */
    List<String> explainListing(String bucket, String prefix, String after) {
        byte[] p = utf8(prefix);
        byte[] upper = ListingWalk.successor(p);
        Marker lower = after == null ? Marker.atLeast(p) : Marker.after(utf8(after), null);
        String sql = dialect.explain + objectRangeSql(lower, upper != null);
        return db.read("explain", c -> {
            List<String> plan = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                ps.setString(i++, bucket);
                if (lower.bound()) {
                    ps.setBytes(i++, lower.key());
                }
                if (upper != null) {
                    ps.setBytes(i++, upper);
                }
                ps.setInt(i, 1001);
                try (ResultSet rs = ps.executeQuery()) {
                    int column = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        plan.add(rs.getString(column));
                    }
                }
            }
            return plan;
        });
    }
}

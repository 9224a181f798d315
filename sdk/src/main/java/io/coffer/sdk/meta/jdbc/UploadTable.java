package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.decodeRefs;
import static io.coffer.sdk.meta.jdbc.Columns.encodeRefs;
import static io.coffer.sdk.meta.jdbc.Columns.millis;
import static io.coffer.sdk.meta.jdbc.Columns.string;
import static io.coffer.sdk.meta.jdbc.Columns.utf8;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.PartRecord;
import io.coffer.sdk.meta.jdbc.ListingWalk.Marker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Multipart uploads and their parts: created, listed, parts committed, aborted, or completed into an object. */
final class UploadTable extends Table {
    private static final String UPLOAD_COLUMNS = "upload_id, bucket, key_utf8, owner, initiated, attributes";

    private final BucketTable bucketTable;
    private final ChunkTable chunkTable;

    UploadTable(Database db, BucketTable bucketTable, ChunkTable chunkTable) {
        super(db);
        this.bucketTable = bucketTable;
        this.chunkTable = chunkTable;
    }

    void createUpload(UploadRecord upload) {
        byte[] key = utf8(upload.key());
        db.write("createUpload", c -> {
            bucketTable.requireBucket(c, upload.bucket());
            try (PreparedStatement ps = prepare(c, "INSERT INTO uploads (" + UPLOAD_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?)")) {
                bind(ps, upload.uploadId(), upload.bucket(), key, upload.owner(), millis(upload.initiated()),
                        upload.attributes());
                ps.executeUpdate();
            }
            return null;
        });
    }

    Optional<UploadRecord> upload(String uploadId) {
        return db.read("upload", c -> {
            try (PreparedStatement ps = prepare(c, "SELECT " + UPLOAD_COLUMNS
                    + " FROM uploads WHERE upload_id = ?")) {
                ps.setString(1, uploadId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(uploadRecord(rs)) : Optional.empty();
                }
            }
        });
    }

    static UploadRecord uploadRecord(ResultSet rs) throws SQLException {
        return new UploadRecord(rs.getString(1), rs.getString(2), string(rs.getBytes(3)), rs.getString(4),
                Instant.ofEpochMilli(rs.getLong(5)), rs.getBytes(6));
    }

    boolean uploadExists(Connection c, String uploadId, String lock) throws SQLException {
        return exists(c, "SELECT 1 FROM uploads WHERE upload_id = ?" + lock, uploadId);
    }

    void commitPart(PartRecord part, NewChunks newChunks) {
        NewChunks chunks = newChunks == null ? NewChunks.NONE : newChunks;
        db.write("commitPart", c -> {
            if (!uploadExists(c, part.uploadId(), dialect.forShare)) {
                throw CofferException.noSuchUpload(part.uploadId());
            }
            List<ChunkId> replaced = null;
            try (PreparedStatement ps = prepare(c, "SELECT chunk_refs FROM parts WHERE upload_id = ? "
                    + "AND part_number = ?" + dialect.forUpdate)) {
                bind(ps, part.uploadId(), part.partNumber());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        replaced = decodeRefs(rs.getBytes(1));
                    }
                }
            }
            chunkTable.registerChunks(c, chunks.packs(), chunks.chunks());
            chunkTable.lockChunks(c, part.chunkRefs(), replaced == null ? List.of() : replaced);
            chunkTable.addRefs(c, part.chunkRefs());
            Object[] values = {part.size(), part.etag(), millis(part.lastModified()), part.attributes(),
                part.manifest(), encodeRefs(part.chunkRefs()), part.uploadId(), part.partNumber()};
            if (replaced != null) {
                try (PreparedStatement ps = prepare(c, "UPDATE parts SET size = ?, etag = ?, last_modified = ?, "
                        + "attributes = ?, manifest = ?, chunk_refs = ? WHERE upload_id = ? AND part_number = ?")) {
                    bind(ps, values);
                    if (ps.executeUpdate() != 1) {
                        throw new RestartTransaction();
                    }
                }
                chunkTable.releaseRefs(c, replaced);
            } else {
                try (PreparedStatement ps = prepare(c, "INSERT INTO parts (size, etag, last_modified, attributes, "
                        + "manifest, chunk_refs, upload_id, part_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (upload_id, part_number) DO NOTHING")) {
                    bind(ps, values);
                    if (ps.executeUpdate() != 1) {
                        throw new RestartTransaction();
                    }
                }
            }
            return null;
        });
    }

    List<PartRecord> parts(String uploadId, int afterPartNumber, int max) {
        if (max <= 0) {
            return List.of();
        }
        return db.read("parts", c -> rows(c, "SELECT upload_id, part_number, size, etag, last_modified, "
                + "attributes, manifest, chunk_refs FROM parts WHERE upload_id = ? AND part_number > ? "
                + "ORDER BY part_number LIMIT ?",
                rs -> new PartRecord(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getString(4),
                        Instant.ofEpochMilli(rs.getLong(5)), rs.getBytes(6), rs.getBytes(7),
                        decodeRefs(rs.getBytes(8))),
                uploadId, afterPartNumber, max));
    }

    UploadPage listUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                  String uploadIdMarker, int maxUploads) {
        byte[] p = prefix == null ? new byte[0] : utf8(prefix);
        byte[] d = delimiter == null || delimiter.isEmpty() ? null : utf8(delimiter);
        byte[] km = keyMarker == null || keyMarker.isEmpty() ? null : utf8(keyMarker);
        String idMarker = km == null || uploadIdMarker == null || uploadIdMarker.isEmpty() ? null : uploadIdMarker;
        return db.read("listUploads", c -> {
            if (bucketTable.bucket(c, bucket, "").isEmpty()) {
                throw CofferException.noSuchBucket(bucket);
            }
            Marker start = km != null && Arrays.compareUnsigned(km, p) >= 0 ? Marker.after(km, idMarker)
                    : Marker.atLeast(p);
            ListingWalk<UploadRecord> walk = ListingWalk.walk(p, d, km, start, maxUploads,
                    (lower, upper, limit) -> fetchUploads(c, bucket, lower, upper, limit),
                    u -> utf8(u.key()), UploadRecord::uploadId);
            List<String> prefixes = walk.prefixes.stream().map(Columns::string).toList();
            return new UploadPage(walk.items, prefixes, walk.truncated,
                    walk.truncated ? string(walk.lastKey) : null, walk.truncated ? walk.lastUploadId : null);
        });
    }

    private List<UploadRecord> fetchUploads(Connection c, String bucket, Marker lower, byte[] upper, int limit)
            throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT " + UPLOAD_COLUMNS + " FROM uploads WHERE bucket = ?");
        List<Object> args = new ArrayList<>();
        args.add(bucket);
        if (lower.uploadIdAfter() != null) {
            sql.append(" AND (key_utf8 > ? OR (key_utf8 = ? AND upload_id > ?))");
            args.add(lower.key());
            args.add(lower.key());
            args.add(lower.uploadIdAfter());
        } else if (lower.bound()) {
            sql.append(lower.inclusive() ? " AND key_utf8 >= ?" : " AND key_utf8 > ?");
            args.add(lower.key());
        }
        if (upper != null) {
            sql.append(" AND key_utf8 < ?");
            args.add(upper);
        }
        sql.append(" ORDER BY key_utf8, upload_id LIMIT ?");
        args.add(limit);
        return rows(c, sql.toString(), UploadTable::uploadRecord, args.toArray());
    }

    void abortUpload(String uploadId) {
        db.write("abortUpload", c -> {
            if (!uploadExists(c, uploadId, dialect.forUpdate)) {
                throw CofferException.noSuchUpload(uploadId);
            }
            abortLocked(c, List.of(uploadId));
            return null;
        });
    }

    /**
     * Uploads initiated before {@code cutoff} whose id sorts after {@code afterUploadId} (null: from the start), in id
     * order, at most {@code max}. There is no index on the initiation time: this walks the primary key, skipping
     * young uploads, which the uploads table (uploads in progress only) keeps small.
     */
    List<UploadRecord> uploadsInitiatedBefore(Instant cutoff, String afterUploadId, int max) {
        if (max <= 0) {
            return List.of();
        }
        return db.read("uploadsInitiatedBefore", c -> rows(c, "SELECT " + UPLOAD_COLUMNS + " FROM uploads "
                + "WHERE upload_id > ? AND initiated < ? ORDER BY upload_id LIMIT ?", UploadTable::uploadRecord,
                afterUploadId == null ? "" : afterUploadId, millis(cutoff), max));
    }

    /**
     * Aborts an upload as {@link #abortUpload} does if it still exists and was initiated before {@code cutoff}, both
     * checked under the upload row's lock: an upload a concurrent Complete committed (deleting the row) is left alone.
     *
     * @return whether this call aborted it
     */
    boolean expireUpload(String uploadId, Instant cutoff) {
        return db.write("expireUpload", c -> {
            List<String> locked = rows(c, "SELECT upload_id FROM uploads WHERE upload_id = ? AND initiated < ?"
                    + dialect.forUpdate, rs -> rs.getString(1), uploadId, millis(cutoff));
            if (locked.isEmpty()) {
                return false;
            }
            abortLocked(c, locked);
            return true;
        });
    }

    /**
     * Deletes uploads (which the caller locked) and their parts, releasing the parts' references: the chunks of all
     * of them are locked at once, in id order, before any is released.
     */
    void abortLocked(Connection c, List<String> uploadIds) throws SQLException {
        Map<String, List<ChunkId>> refs = new LinkedHashMap<>();
        List<ChunkId> all = new ArrayList<>();
        for (String uploadId : uploadIds) {
            List<ChunkId> partRefs = partRefs(c, uploadId);
            refs.put(uploadId, partRefs);
            all.addAll(partRefs);
        }
        chunkTable.lockChunks(c, all);
        for (Map.Entry<String, List<ChunkId>> upload : refs.entrySet()) {
            deleteUpload(c, upload.getKey(), upload.getValue());
        }
    }

    /** The chunk references of all parts of an upload, locking the parts. */
    List<ChunkId> partRefs(Connection c, String uploadId) throws SQLException {
        List<ChunkId> refs = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, "SELECT chunk_refs FROM parts WHERE upload_id = ?"
                + dialect.forUpdate)) {
            ps.setString(1, uploadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    refs.addAll(decodeRefs(rs.getBytes(1)));
                }
            }
        }
        return refs;
    }

    /** Deletes an upload (which the caller locked) and its parts, releasing {@code partRefs}, their references. */
    void deleteUpload(Connection c, String uploadId, List<ChunkId> partRefs) throws SQLException {
        try (PreparedStatement ps = prepare(c, "DELETE FROM parts WHERE upload_id = ?")) {
            ps.setString(1, uploadId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = prepare(c, "DELETE FROM uploads WHERE upload_id = ?")) {
            ps.setString(1, uploadId);
            if (ps.executeUpdate() != 1) {
                throw new RestartTransaction();
            }
        }
        chunkTable.releaseRefs(c, partRefs);
    }
}

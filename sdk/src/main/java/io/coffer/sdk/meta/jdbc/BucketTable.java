package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.millis;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** Buckets: created, looked up (and locked by the writes in them), listed and deleted. */
final class BucketTable extends Table {
    BucketTable(Database db) {
        super(db);
    }

    void createBucket(Bucket bucket, Map<String, byte[]> configs) {
        db.write("createBucket", c -> {
            int inserted;
            try (PreparedStatement ps = prepare(c, "INSERT INTO buckets (name, owner, region, created) "
                    + "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING")) {
                bind(ps, bucket.name(), bucket.owner(), bucket.region(), millis(bucket.created()));
                inserted = ps.executeUpdate();
            }
            if (inserted == 1) {
                for (Map.Entry<String, byte[]> config : configs.entrySet()) {
                    try (PreparedStatement ps = prepare(c, "INSERT INTO bucket_configs (bucket, name, document) "
                            + "VALUES (?, ?, ?)")) {
                        bind(ps, bucket.name(), config.getKey(), config.getValue());
                        ps.executeUpdate();
                    }
                }
                return null;
            }
            Optional<Bucket> existing = bucket(c, bucket.name(), "");
            if (existing.isPresent() && Objects.equals(existing.get().owner(), bucket.owner())) {
                throw CofferException.of(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU,
                        "Your previous request to create the named bucket succeeded and you already own it: "
                                + bucket.name());
            }
            throw CofferException.of(ErrorCode.BUCKET_ALREADY_EXISTS,
                    "The requested bucket name is not available: " + bucket.name());
        });
    }

    Optional<Bucket> bucket(String name) {
        return db.read("bucket", c -> bucket(c, name, ""));
    }

    Optional<Bucket> bucket(Connection c, String name, String lock) throws SQLException {
        try (PreparedStatement ps = prepare(c, "SELECT name, owner, region, created FROM buckets WHERE name = ?"
                + lock)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(bucketRecord(rs)) : Optional.empty();
            }
        }
    }

    private static Bucket bucketRecord(ResultSet rs) throws SQLException {
        return new Bucket(rs.getString(1), rs.getString(2), rs.getString(3), Instant.ofEpochMilli(rs.getLong(4)));
    }

    List<Bucket> buckets() {
        return db.read("buckets", c -> rows(c, "SELECT name, owner, region, created FROM buckets ORDER BY name",
                BucketTable::bucketRecord));
    }

    Map<String, byte[]> bucketConfigs(String bucket) {
        return db.read("bucketConfigs", c -> {
            Map<String, byte[]> out = new TreeMap<>();
            try (PreparedStatement ps = prepare(c, "SELECT name, document FROM bucket_configs WHERE bucket = ?")) {
                ps.setString(1, bucket);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), rs.getBytes(2));
                    }
                }
            }
            return out;
        });
    }

    void putBucketConfig(String bucket, String name, byte[] document) {
        db.write("putBucketConfig", c -> {
            requireBucket(c, bucket);
            if (document == null) {
                try (PreparedStatement ps = prepare(c, "DELETE FROM bucket_configs WHERE bucket = ? AND name = ?")) {
                    bind(ps, bucket, name);
                    ps.executeUpdate();
                }
                return null;
            }
            try (PreparedStatement ps = prepare(c, "INSERT INTO bucket_configs (bucket, name, document) "
                    + "VALUES (?, ?, ?) ON CONFLICT (bucket, name) DO UPDATE SET document = excluded.document")) {
                bind(ps, bucket, name, document);
                ps.executeUpdate();
            }
            return null;
        });
    }

    void deleteBucket(String name, UploadTable uploadTable) {
        db.write("deleteBucket", c -> {
            if (bucket(c, name, dialect.forUpdate).isEmpty()) {
                throw CofferException.noSuchBucket(name);
            }
            if (exists(c, "SELECT 1 FROM objects WHERE bucket = ? LIMIT 1", name)
                    || exists(c, "SELECT 1 FROM object_versions WHERE bucket = ? LIMIT 1", name)) {
                throw bucketNotEmpty(name);
            }
            // S3 deletes a bucket that holds only uploads in progress, aborting them; the bucket row's lock keeps
            // new uploads and completions out, and the upload rows' locks wait out parts being committed
            uploadTable.abortLocked(c, rows(c, "SELECT upload_id FROM uploads WHERE bucket = ? ORDER BY upload_id"
                    + dialect.forUpdate, rs -> rs.getString(1), name));
            try (PreparedStatement ps = prepare(c, "DELETE FROM bucket_configs WHERE bucket = ?")) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
            // lock rows left by versions that were never committed (a crash between storing a lock and its commit)
            try (PreparedStatement ps = prepare(c, "DELETE FROM object_locks WHERE bucket = ?")) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = prepare(c, "DELETE FROM buckets WHERE name = ?")) {
                ps.setString(1, name);
                ps.executeUpdate();
            } catch (SQLException e) {
                if (isForeignKeyViolation(e)) {
                    throw bucketNotEmpty(name);
                }
                throw e;
            }
            return null;
        });
    }

    private static CofferException bucketNotEmpty(String name) {
        return CofferException.of(ErrorCode.BUCKET_NOT_EMPTY, "The bucket you tried to delete is not empty: " + name);
    }

    void requireBucket(Connection c, String name) throws SQLException {
        if (bucket(c, name, dialect.forShare).isEmpty()) {
            throw CofferException.noSuchBucket(name);
        }
    }

    private static boolean isForeignKeyViolation(SQLException e) {
        // PostgreSQL reports 23503; SQLite reports SQLITE_CONSTRAINT_FOREIGNKEY (787) with a generic state
        return "23503".equals(e.getSQLState()) || e.getErrorCode() == 787
                || (e.getMessage() != null && e.getMessage().contains("FOREIGN KEY constraint failed"));
    }
}

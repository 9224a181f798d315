package io.coffer.sdk.meta.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.BucketRecord;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectPage;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.ObjectSummary;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.meta.PackUsage;
import io.coffer.sdk.meta.PartRecord;
import io.coffer.sdk.meta.Precondition;
import io.coffer.sdk.meta.StoreStats;
import io.coffer.sdk.meta.UploadPage;
import io.coffer.sdk.meta.UploadRecord;
import io.coffer.sdk.meta.jdbc.ListingWalk.Marker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The {@link MetadataStore} over JDBC, in two dialects: SQLite (the embedded default) and PostgreSQL (shared
 * deployments; the SQL is standard SQL plus {@code INSERT ... ON CONFLICT}, so it is meant to run on CockroachDB and
 * YugabyteDB too).
 *
 * <p><b>Representation.</b> Keys, prefixes and upload keys are stored as the BLOB/bytea of their UTF-8 bytes, so the
 * database orders them bytewise, which is S3's order. A prefix is matched as the index range
 * {@code key >= prefix AND key < ListingWalk.successor(prefix)}; a delimiter listing walks the primary-key index and, on meeting a
 * key that contains the delimiter after the prefix, emits the common prefix and seeks past it, so each common prefix
 * costs one index seek. Chunk references of an object or part are stored as the concatenation of their 32-byte ids.
 * Timestamps are epoch milliseconds ({@code Instant}s are truncated to milliseconds). The schema lives in versioned
 * resource files applied on open ({@link SchemaMigrations}).
 *
 * <p><b>Reference counts.</b> Every write runs in one transaction that, in this order, registers new packs and chunks
 * ({@code INSERT ... ON CONFLICT DO NOTHING}, unreferenced and "released now" so that the garbage collector's grace
 * period protects them), adds one reference to each chunk of the new record (every update must hit exactly one row,
 * else {@code CONFLICT_RETRY} and a rollback), then releases the references of what it replaced, so a chunk shared by
 * the old and the new record never drops to zero in between. A chunk whose count drops to zero is stamped
 * {@code released_at}.
 *
 * <p><b>SQLite.</b> WAL journal (readers never block the writer), {@code synchronous=FULL} (a committed object survives
 * power loss, not just a process crash), a busy timeout (another process may hold the file), foreign keys on. SQLite
 * allows one writer at a time anyway, so the store keeps a single writer connection guarded by a lock, with
 * {@code BEGIN IMMEDIATE} transactions: writes serialize in the JVM instead of failing with {@code SQLITE_BUSY}, and
 * concurrent commits to one key trivially see each other. Writes that queue while another commits are committed
 * together in one transaction, each in a savepoint of its own (group commit: one WAL fsync per group, not per write;
 * no write returns before its transaction is durable). Reads use a small fixed pool of separate connections that
 * see the last committed state. Both kinds of connection keep their prepared statements for reuse.
 *
 * <p><b>PostgreSQL.</b> A HikariCP pool; transactions run at the database's default isolation. A commit locks the
 * bucket row {@code FOR SHARE} (so a concurrent {@code deleteBucket} waits for it) and the current object row
 * {@code FOR UPDATE} (so commits to one key serialize and each replaced record is returned to exactly one commit); an
 * insert that races another insert of the same key ({@code ON CONFLICT DO NOTHING} inserting nothing) restarts the
 * transaction. Serialization failures and deadlocks (SQLState 40001, 40P01) restart the transaction transparently, a
 * bounded number of times, after which the caller gets {@code CONFLICT_RETRY}. Server error details are turned off
 * on the connections so that exceptions never carry key bytes.
 *
 * <p>Keys and manifests are never logged.
 */
public final class JdbcMetadataStore implements MetadataStore {

    private static final int SQLITE_READERS = 4;
    private static final int POSTGRES_POOL = 16;
    private static final int IN_BATCH = 500;

    /** Maps the current row of a result set. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Every row of a query, mapped. */
    private <T> List<T> rows(Connection c, String sql, RowReader<T> reader, Object... args) throws SQLException {
        List<T> out = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
        }
        return out;
    }

    private static PackRecord packRecord(ResultSet rs) throws SQLException {
        return new PackRecord(rs.getString(1), rs.getLong(2), Instant.ofEpochMilli(rs.getLong(3)));
    }

    private final Database db;
    private final Dialect dialect;

    private JdbcMetadataStore(Database db) {
        this.db = db;
        this.dialect = db.dialect;
    }

    // ---- factories

    /** Opens (creating if needed) a SQLite metadata database in {@code file}, applying schema migrations. */
    /**
     * Creates an absent database file with mode 0600: it holds object keys and metadata in clear (SQLite gives its
     * -wal and -shm files the database file's permissions).
     */
    private static void createPrivately(Path file) {
        try {
            if (!java.nio.file.Files.exists(file)
                    && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
                java.nio.file.Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            }
        } catch (java.nio.file.FileAlreadyExistsException raced) {
            // another opener created it first
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create " + file, e);
        }
    }

    public static JdbcMetadataStore sqlite(Path file) {
        Objects.requireNonNull(file, "file");
        createPrivately(file);
        String url = "jdbc:sqlite:" + file.toAbsolutePath();
        List<Connection> opened = new ArrayList<>();
        try {
            SQLiteConfig writerConfig = sqliteConfig();
            writerConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
            writerConfig.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
            SQLiteDataSource writerSource = new SQLiteDataSource(writerConfig);
            writerSource.setUrl(url);
            Connection writer = writerSource.getConnection();
            opened.add(writer);
            writer.setAutoCommit(false);
            SchemaMigrations.migrate(Dialect.SQLITE, writer);
            writer.setAutoCommit(true);

            SQLiteDataSource readerSource = new SQLiteDataSource(sqliteConfig());
            readerSource.setUrl(url);
            List<Connection> readers = new ArrayList<>();
            for (int i = 0; i < SQLITE_READERS; i++) {
                Connection reader = readerSource.getConnection();
                opened.add(reader);
                readers.add(reader);
            }
            return new JdbcMetadataStore(Database.sqlite(writer, readers));
        } catch (SQLException | RuntimeException e) {
            for (Connection c : opened) {
                Database.closeQuietly(c);
            }
            if (e instanceof CofferException ce) {
                throw ce;
            }
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "cannot open SQLite metadata store " + file, e);
        }
    }

    private static SQLiteConfig sqliteConfig() {
        SQLiteConfig config = new SQLiteConfig();
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.setBusyTimeout(30_000);
        config.enforceForeignKeys(true);
        return config;
    }

    /** Connects to a PostgreSQL (or wire-compatible) database through a connection pool, applying schema migrations. */
    public static JdbcMetadataStore postgres(String jdbcUrl, String user, String password) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setPoolName("coffer-meta");
        config.setMaximumPoolSize(POSTGRES_POOL);
        config.setMinimumIdle(2);
        config.setAutoCommit(true);
        // exceptions must not carry row values (keys) from the server's DETAIL field
        config.addDataSourceProperty("logServerErrorDetail", "false");
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "cannot connect to the PostgreSQL metadata store", e);
        }
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            SchemaMigrations.migrate(Dialect.POSTGRES, c);
            c.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) {
            pool.close();
            if (e instanceof CofferException ce) {
                throw ce;
            }
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "cannot open the PostgreSQL metadata store", e);
        }
        return new JdbcMetadataStore(Database.postgres(pool));
    }

    // ---- buckets

    @Override
    public void createBucket(BucketRecord bucket) {
        db.write("createBucket", c -> {
            int inserted;
            try (PreparedStatement ps = prepare(c, "INSERT INTO buckets (name, owner, region, created) "
                    + "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING")) {
                bind(ps, bucket.name(), bucket.owner(), bucket.region(), millis(bucket.created()));
                inserted = ps.executeUpdate();
            }
            if (inserted == 1) {
                return null;
            }
            Optional<BucketRecord> existing = bucket(c, bucket.name(), "");
            if (existing.isPresent() && Objects.equals(existing.get().owner(), bucket.owner())) {
                throw CofferException.of(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU,
                        "Your previous request to create the named bucket succeeded and you already own it: "
                                + bucket.name());
            }
            throw CofferException.of(ErrorCode.BUCKET_ALREADY_EXISTS,
                    "The requested bucket name is not available: " + bucket.name());
        });
    }

    @Override
    public Optional<BucketRecord> bucket(String name) {
        return db.read("bucket", c -> bucket(c, name, ""));
    }

    private Optional<BucketRecord> bucket(Connection c, String name, String lock) throws SQLException {
        try (PreparedStatement ps = prepare(c, "SELECT name, owner, region, created FROM buckets WHERE name = ?"
                + lock)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(bucketRecord(rs)) : Optional.empty();
            }
        }
    }

    private static BucketRecord bucketRecord(ResultSet rs) throws SQLException {
        return new BucketRecord(rs.getString(1), rs.getString(2), rs.getString(3), Instant.ofEpochMilli(rs.getLong(4)));
    }

    @Override
    public List<BucketRecord> buckets() {
        return db.read("buckets", c -> rows(c, "SELECT name, owner, region, created FROM buckets ORDER BY name",
                JdbcMetadataStore::bucketRecord));
    }

    @Override
    public void deleteBucket(String name) {
        db.write("deleteBucket", c -> {
            if (bucket(c, name, dialect.forUpdate).isEmpty()) {
                throw CofferException.noSuchBucket(name);
            }
            if (exists(c, "SELECT 1 FROM objects WHERE bucket = ? LIMIT 1", name)) {
                throw bucketNotEmpty(name);
            }
            // S3 deletes a bucket that holds only uploads in progress, aborting them; the bucket row's lock keeps
            // new uploads and completions out, and the upload rows' locks wait out parts being committed
            abortLocked(c, rows(c, "SELECT upload_id FROM uploads WHERE bucket = ? ORDER BY upload_id"
                    + dialect.forUpdate, rs -> rs.getString(1), name));
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

    private void requireBucket(Connection c, String name) throws SQLException {
        if (bucket(c, name, dialect.forShare).isEmpty()) {
            throw CofferException.noSuchBucket(name);
        }
    }

    // ---- chunk index

    @Override
    public Map<ChunkId, ChunkLocation> locate(Collection<ChunkId> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        List<ChunkId> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
        return db.read("locate", c -> {
            Map<ChunkId, ChunkLocation> out = new HashMap<>();
            for (int from = 0; from < distinct.size(); from += IN_BATCH) {
                List<ChunkId> batch = distinct.subList(from, Math.min(distinct.size(), from + IN_BATCH));
                String sql = "SELECT id, pack, pack_offset, length FROM chunks WHERE id IN ("
                        + "?, ".repeat(batch.size() - 1) + "?)";
                try (PreparedStatement ps = prepare(c, sql)) {
                    for (int i = 0; i < batch.size(); i++) {
                        ps.setBytes(i + 1, batch.get(i).toBytes());
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            ChunkId id = ChunkId.of(rs.getBytes(1));
                            out.put(id, new ChunkLocation(id, rs.getString(2), rs.getLong(3), rs.getInt(4)));
                        }
                    }
                }
            }
            return out;
        });
    }

    // ---- objects

    private static final String OBJECT_COLUMNS =
            "bucket, key_utf8, version_id, size, etag, last_modified, attributes, manifest, chunk_refs";

    @Override
    public Optional<ObjectRecord> object(String bucket, String key) {
        byte[] k = utf8(key);
        return db.read("object", c -> object(c, bucket, k, ""));
    }

    @Override
    public Optional<ObjectRecord> completedUpload(String bucket, String key, String uploadId) {
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
            return Optional.of(new ObjectRecord(rs.getString(1), string(rs.getBytes(2)), rs.getString(3),
                    rs.getLong(4), rs.getString(5), Instant.ofEpochMilli(rs.getLong(6)), rs.getBytes(7),
                    rs.getBytes(8), decodeRefs(rs.getBytes(9))));
        }
    }

    @Override
    public Optional<ObjectRecord> commitObject(ObjectRecord object, NewChunks newChunks, Precondition precondition,
                                               String completesUpload) {
        byte[] key = utf8(object.key());
        NewChunks chunks = newChunks == null ? NewChunks.NONE : newChunks;
        Precondition pre = precondition == null ? Precondition.NONE : precondition;
        return db.write("commitObject", c -> {
            requireBucket(c, object.bucket());
            Optional<ObjectRecord> existing = object(c, object.bucket(), key, dialect.forUpdate);
            checkPrecondition(pre, existing, object);
            List<ChunkId> partRefs = List.of();
            if (completesUpload != null) {
                if (!uploadExists(c, completesUpload, dialect.forUpdate)) {
                    throw CofferException.noSuchUpload(completesUpload);
                }
                partRefs = partRefs(c, completesUpload);
            }
            registerChunks(c, chunks.packs(), chunks.chunks());
            lockChunks(c, object.chunkRefs(), existing.map(ObjectRecord::chunkRefs).orElse(List.of()), partRefs);
            addRefs(c, object.chunkRefs());
            Object[] values = {object.versionId(), object.size(), object.etag(), millis(object.lastModified()),
                object.attributes(), object.manifest(), encodeRefs(object.chunkRefs()), completesUpload};
            if (existing.isPresent()) {
                try (PreparedStatement ps = prepare(c, "UPDATE objects SET version_id = ?, size = ?, etag = ?, "
                        + "last_modified = ?, attributes = ?, manifest = ?, chunk_refs = ?, upload_id = ? "
                        + "WHERE bucket = ? AND key_utf8 = ?")) {
                    bind(ps, concat(values, object.bucket(), key));
                    if (ps.executeUpdate() != 1) {
                        throw new RestartTransaction();
                    }
                }
                releaseRefs(c, existing.get().chunkRefs());
            } else {
                try (PreparedStatement ps = prepare(c, "INSERT INTO objects (version_id, size, etag, last_modified, "
                        + "attributes, manifest, chunk_refs, upload_id, bucket, key_utf8) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (bucket, key_utf8) DO NOTHING")) {
                    bind(ps, concat(values, object.bucket(), key));
                    if (ps.executeUpdate() != 1) {
                        // another commit inserted the key after our look: start over and replace it properly
                        throw new RestartTransaction();
                    }
                }
            }
            if (completesUpload != null) {
                deleteUpload(c, completesUpload, partRefs);
            }
            return existing;
        });
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
            if (!etagMatches(pre.ifMatch(), existing.get().etag())) {
                throw CofferException.of(ErrorCode.PRECONDITION_FAILED,
                        "At least one of the preconditions you specified did not hold (If-Match)");
            }
        }
    }

    /** If-Match comparison: {@code *} matches any object; quotes around either ETag are ignored. */
    static boolean etagMatches(String ifMatch, String etag) {
        String wanted = ifMatch.strip();
        return wanted.equals("*") || unquote(wanted).equals(unquote(etag == null ? "" : etag.strip()));
    }

    private static String unquote(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
                ? etag.substring(1, etag.length() - 1) : etag;
    }

    @Override
    public Optional<ObjectRecord> deleteObject(String bucket, String key) {
        byte[] k = utf8(key);
        return db.write("deleteObject", c -> {
            Optional<ObjectRecord> existing = object(c, bucket, k, dialect.forUpdate);
            if (existing.isEmpty()) {
                return existing;
            }
            try (PreparedStatement ps = prepare(c, "DELETE FROM objects WHERE bucket = ? AND key_utf8 = ?")) {
                bind(ps, bucket, k);
                if (ps.executeUpdate() != 1) {
                    throw new RestartTransaction();
                }
            }
            lockChunks(c, existing.get().chunkRefs());
            releaseRefs(c, existing.get().chunkRefs());
            return existing;
        });
    }

    @Override
    public ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        byte[] p = prefix == null ? new byte[0] : utf8(prefix);
        byte[] d = delimiter == null || delimiter.isEmpty() ? null : utf8(delimiter);
        byte[] a = after == null || after.isEmpty() ? null : utf8(after);
        return db.read("listObjects", c -> {
            if (bucket(c, bucket, "").isEmpty()) {
                throw CofferException.noSuchBucket(bucket);
            }
            Marker start = a != null && Arrays.compareUnsigned(a, p) >= 0 ? Marker.after(a, null) : Marker.atLeast(p);
            ListingWalk<ObjectSummary> walk = ListingWalk.walk(p, d, a, start, maxKeys,
                    (lower, upper, limit) -> fetchObjects(c, bucket, lower, upper, limit),
                    s -> utf8(s.key()), s -> null);
            List<String> prefixes = walk.prefixes.stream().map(JdbcMetadataStore::string).toList();
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

    // ---- multipart uploads

    private static final String UPLOAD_COLUMNS = "upload_id, bucket, key_utf8, owner, initiated, attributes";

    @Override
    public void createUpload(UploadRecord upload) {
        byte[] key = utf8(upload.key());
        db.write("createUpload", c -> {
            requireBucket(c, upload.bucket());
            try (PreparedStatement ps = prepare(c, "INSERT INTO uploads (" + UPLOAD_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?)")) {
                bind(ps, upload.uploadId(), upload.bucket(), key, upload.owner(), millis(upload.initiated()),
                        upload.attributes());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<UploadRecord> upload(String uploadId) {
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

    private static UploadRecord uploadRecord(ResultSet rs) throws SQLException {
        return new UploadRecord(rs.getString(1), rs.getString(2), string(rs.getBytes(3)), rs.getString(4),
                Instant.ofEpochMilli(rs.getLong(5)), rs.getBytes(6));
    }

    private boolean uploadExists(Connection c, String uploadId, String lock) throws SQLException {
        return exists(c, "SELECT 1 FROM uploads WHERE upload_id = ?" + lock, uploadId);
    }

    @Override
    public void commitPart(PartRecord part, NewChunks newChunks) {
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
            registerChunks(c, chunks.packs(), chunks.chunks());
            lockChunks(c, part.chunkRefs(), replaced == null ? List.of() : replaced);
            addRefs(c, part.chunkRefs());
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
                releaseRefs(c, replaced);
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

    @Override
    public List<PartRecord> parts(String uploadId, int afterPartNumber, int max) {
        if (max <= 0) {
            return List.of();
        }
        return db.read("parts", c -> rows(c, "SELECT upload_id, part_number, size, etag, last_modified, "
                + "attributes, manifest, chunk_refs FROM parts WHERE upload_id = ? AND part_number > ? "
                + "ORDER BY part_number LIMIT ?",
                rs -> new PartRecord(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getString(4),
                        Instant.ofEpochMilli(rs.getLong(5)), rs.getBytes(6), rs.getBytes(7), decodeRefs(rs.getBytes(8))),
                uploadId, afterPartNumber, max));
    }

    @Override
    public UploadPage listUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                  String uploadIdMarker, int maxUploads) {
        byte[] p = prefix == null ? new byte[0] : utf8(prefix);
        byte[] d = delimiter == null || delimiter.isEmpty() ? null : utf8(delimiter);
        byte[] km = keyMarker == null || keyMarker.isEmpty() ? null : utf8(keyMarker);
        String idMarker = km == null || uploadIdMarker == null || uploadIdMarker.isEmpty() ? null : uploadIdMarker;
        return db.read("listUploads", c -> {
            if (bucket(c, bucket, "").isEmpty()) {
                throw CofferException.noSuchBucket(bucket);
            }
            Marker start = km != null && Arrays.compareUnsigned(km, p) >= 0 ? Marker.after(km, idMarker)
                    : Marker.atLeast(p);
            ListingWalk<UploadRecord> walk = ListingWalk.walk(p, d, km, start, maxUploads,
                    (lower, upper, limit) -> fetchUploads(c, bucket, lower, upper, limit),
                    u -> utf8(u.key()), UploadRecord::uploadId);
            List<String> prefixes = walk.prefixes.stream().map(JdbcMetadataStore::string).toList();
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
        return rows(c, sql.toString(), JdbcMetadataStore::uploadRecord, args.toArray());
    }

    @Override
    public void abortUpload(String uploadId) {
        db.write("abortUpload", c -> {
            if (!uploadExists(c, uploadId, dialect.forUpdate)) {
                throw CofferException.noSuchUpload(uploadId);
            }
            abortLocked(c, List.of(uploadId));
            return null;
        });
    }

    /**
     * Deletes uploads (which the caller locked) and their parts, releasing the parts' references: the chunks of all
     * of them are locked at once, in id order, before any is released.
     */
    private void abortLocked(Connection c, List<String> uploadIds) throws SQLException {
        Map<String, List<ChunkId>> refs = new LinkedHashMap<>();
        List<ChunkId> all = new ArrayList<>();
        for (String uploadId : uploadIds) {
            List<ChunkId> partRefs = partRefs(c, uploadId);
            refs.put(uploadId, partRefs);
            all.addAll(partRefs);
        }
        lockChunks(c, all);
        for (Map.Entry<String, List<ChunkId>> upload : refs.entrySet()) {
            deleteUpload(c, upload.getKey(), upload.getValue());
        }
    }

    /** The chunk references of all parts of an upload, locking the parts. */
    private List<ChunkId> partRefs(Connection c, String uploadId) throws SQLException {
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
    private void deleteUpload(Connection c, String uploadId, List<ChunkId> partRefs) throws SQLException {
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
        releaseRefs(c, partRefs);
    }

    // ---- reference counting

    private void registerChunks(Connection c, List<PackRecord> packs, List<ChunkLocation> chunks) throws SQLException {
        if (!packs.isEmpty()) {
            try (PreparedStatement ps = prepare(c, "INSERT INTO packs (name, size, created, retired_at) "
                    + "VALUES (?, ?, ?, NULL) ON CONFLICT (name) DO NOTHING")) {
                for (PackRecord pack : packs) {
                    bind(ps, pack.name(), pack.size(), millis(pack.created()));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        if (!chunks.isEmpty()) {
            long now = System.currentTimeMillis();
            List<ChunkLocation> sorted = new ArrayList<>(chunks);
            sorted.sort((x, y) -> x.id().compareTo(y.id()));
            try (PreparedStatement ps = prepare(c, "INSERT INTO chunks (id, pack, pack_offset, length, refs, "
                    + "released_at) VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (id) DO NOTHING")) {
                for (ChunkLocation chunk : sorted) {
                    bind(ps, chunk.id().toBytes(), chunk.pack(), chunk.offset(), chunk.length(), now);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
    }

    /**
     * On PostgreSQL, locks the rows of every chunk the transaction will add or release references on, all at once in
     * id order: concurrent writes then wait for each other instead of deadlocking (each deadlock costs the server's
     * {@code deadlock_timeout} to detect). SQLite has a single writer and needs no row locks.
     */
    @SafeVarargs
    private void lockChunks(Connection c, List<ChunkId>... groups) throws SQLException {
        if (!dialect.locksChunkRows) {
            return;
        }
        List<ChunkId> all = new ArrayList<>();
        for (List<ChunkId> group : groups) {
            all.addAll(group);
        }
        List<ChunkId> sorted = new ArrayList<>(new TreeSet<>(all));
        for (int from = 0; from < sorted.size(); from += IN_BATCH) {
            List<ChunkId> batch = sorted.subList(from, Math.min(sorted.size(), from + IN_BATCH));
            try (PreparedStatement ps = prepare(c, "SELECT id FROM chunks WHERE id IN ("
                    + "?, ".repeat(batch.size() - 1) + "?) ORDER BY id" + dialect.forUpdate)) {
                for (int i = 0; i < batch.size(); i++) {
                    ps.setBytes(i + 1, batch.get(i).toBytes());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rs.getBytes(1);
                    }
                }
            }
        }
    }

    /** Adds one reference to each id; {@code CONFLICT_RETRY} (the transaction rolls back) if one is not indexed. */
    private void addRefs(Connection c, List<ChunkId> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        List<ChunkId> sorted = sorted(ids);
        int[] counts;
        try (PreparedStatement ps = prepare(c, "UPDATE chunks SET refs = refs + 1, released_at = NULL WHERE id = ?")) {
            for (ChunkId id : sorted) {
                ps.setBytes(1, id.toBytes());
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == Statement.SUCCESS_NO_INFO) {
                continue;
            }
            if (counts[i] != 1) {
                throw CofferException.of(ErrorCode.CONFLICT_RETRY,
                        "chunk " + sorted.get(i) + " was collected while a write referenced it; retry the write");
            }
        }
        if (Arrays.stream(counts).anyMatch(n -> n == Statement.SUCCESS_NO_INFO)) {
            Map<ChunkId, ChunkLocation> present = locateIn(c, sorted);
            for (ChunkId id : sorted) {
                if (!present.containsKey(id)) {
                    throw CofferException.of(ErrorCode.CONFLICT_RETRY,
                            "chunk " + id + " was collected while a write referenced it; retry the write");
                }
            }
        }
    }

    private Map<ChunkId, ChunkLocation> locateIn(Connection c, List<ChunkId> ids) throws SQLException {
        Map<ChunkId, ChunkLocation> out = new HashMap<>();
        try (PreparedStatement ps = prepare(c, "SELECT pack, pack_offset, length FROM chunks WHERE id = ?")) {
            for (ChunkId id : ids) {
                ps.setBytes(1, id.toBytes());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        out.put(id, new ChunkLocation(id, rs.getString(1), rs.getLong(2), rs.getInt(3)));
                    }
                }
            }
        }
        return out;
    }

    /** Releases one reference from each id, stamping {@code released_at} on those that reach zero. */
    private void releaseRefs(Connection c, List<ChunkId> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        List<ChunkId> sorted = sorted(ids);
        long now = System.currentTimeMillis();
        int[] counts;
        try (PreparedStatement ps = prepare(c, "UPDATE chunks SET refs = refs - 1, "
                + "released_at = CASE WHEN refs = 1 THEN ? ELSE released_at END WHERE id = ? AND refs > 0")) {
            for (ChunkId id : sorted) {
                ps.setLong(1, now);
                ps.setBytes(2, id.toBytes());
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 1 && counts[i] != Statement.SUCCESS_NO_INFO) {
                throw CofferException.of(ErrorCode.INTERNAL_ERROR, "metadata invariant broken: chunk "
                        + sorted.get(i) + " is not referenced but a record held a reference to it");
            }
        }
    }

    private static List<ChunkId> sorted(List<ChunkId> ids) {
        List<ChunkId> sorted = new ArrayList<>(ids);
        sorted.sort(null);
        return sorted;
    }

    /** The reference count of a chunk, or empty if it is not indexed (for tests and fsck-style checks). */
    OptionalLong refCount(ChunkId id) {
        return db.read("refCount", c -> {
            try (PreparedStatement ps = prepare(c, "SELECT refs FROM chunks WHERE id = ?")) {
                ps.setBytes(1, id.toBytes());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    /** How many SQL statements this store has prepared (each executed once, or once as a batch); for tests. */
    long statementCount() {
        return db.statements().prepared();
    }

    /** How many write transactions this store has committed; for tests. */
    long writeTransactions() {
        return db.writeTransactions();
    }

    /** How many SQLite writes are waiting for the writer; for tests. */
    int queuedWrites() {
        return db.queuedWrites();
    }

    // ---- packs and garbage collection

    @Override
    public void registerPack(PackRecord pack, List<ChunkLocation> chunks) {
        db.write("registerPack", c -> {
            registerChunks(c, List.of(pack), chunks);
            return null;
        });
    }

    @Override
    public List<PackRecord> packs() {
        return db.read("packs", c -> rows(c, "SELECT name, size, created FROM packs WHERE retired_at IS NULL "
                + "ORDER BY name", JdbcMetadataStore::packRecord));
    }

    @Override
    public List<PackUsage> packUsage(Instant graceCutoff) {
        long cutoff = millis(graceCutoff);
        String live = "(c.refs > 0 OR COALESCE(c.released_at, 0) >= ?)";
        String sql = "SELECT p.name, p.size, p.created, "
                + "COALESCE(SUM(CASE WHEN " + live + " THEN c.length ELSE 0 END), 0), "
                + "COUNT(CASE WHEN " + live + " THEN 1 END), "
                + "COUNT(CASE WHEN c.id IS NOT NULL AND NOT " + live + " THEN 1 END) "
                + "FROM packs p LEFT JOIN chunks c ON c.pack = p.name WHERE p.retired_at IS NULL "
                + "GROUP BY p.name, p.size, p.created ORDER BY p.name";
        return db.read("packUsage", c -> rows(c, sql,
                rs -> new PackUsage(packRecord(rs), rs.getLong(4), rs.getInt(5), rs.getInt(6)), cutoff, cutoff, cutoff));
    }

    @Override
    public List<ChunkLocation> liveChunks(String pack, Instant graceCutoff) {
        long cutoff = millis(graceCutoff);
        String sql = "SELECT id, pack_offset, length FROM chunks WHERE pack = ? "
                + "AND (refs > 0 OR COALESCE(released_at, 0) >= ?) ORDER BY pack_offset";
        return db.read("liveChunks", c -> rows(c, sql,
                rs -> new ChunkLocation(ChunkId.of(rs.getBytes(1)), pack, rs.getLong(2), rs.getInt(3)), pack, cutoff));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Retiring a pack that is unknown or already retired changes nothing. Locations in {@code moved} whose chunk
     * is not (or no longer) in {@code oldPack} are ignored.
     */
    @Override
    public void retirePack(String oldPack, List<ChunkLocation> moved, Instant graceCutoff) {
        long cutoff = millis(graceCutoff);
        db.write("retirePack", c -> {
            if (!exists(c, "SELECT 1 FROM packs WHERE name = ? AND retired_at IS NULL" + dialect.forUpdate,
                    oldPack)) {
                return null;
            }
            if (!moved.isEmpty()) {
                List<ChunkLocation> sorted = new ArrayList<>(moved);
                sorted.sort((x, y) -> x.id().compareTo(y.id()));
                try (PreparedStatement ps = prepare(c, "UPDATE chunks SET pack = ?, pack_offset = ?, length = ? "
                        + "WHERE id = ? AND pack = ?")) {
                    for (ChunkLocation location : sorted) {
                        bind(ps, location.pack(), location.offset(), location.length(), location.id().toBytes(),
                                oldPack);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            try (PreparedStatement ps = prepare(c, "DELETE FROM chunks WHERE pack = ? AND refs = 0 "
                    + "AND COALESCE(released_at, 0) < ?")) {
                bind(ps, oldPack, cutoff);
                ps.executeUpdate();
            }
            if (exists(c, "SELECT 1 FROM chunks WHERE pack = ? LIMIT 1", oldPack)) {
                throw CofferException.of(ErrorCode.CONFLICT_RETRY, "pack " + oldPack
                        + " holds live chunks that were not moved; rewrite it again");
            }
            try (PreparedStatement ps = prepare(c, "UPDATE packs SET retired_at = ? WHERE name = ?")) {
                bind(ps, System.currentTimeMillis(), oldPack);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<String> retiredPacks(Instant cutoff) {
        return db.read("retiredPacks", c -> rows(c, "SELECT name FROM packs WHERE retired_at IS NOT NULL "
                + "AND retired_at < ? ORDER BY name", rs -> rs.getString(1), millis(cutoff)));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Forgetting an unknown pack does nothing; a pack that is not retired is refused with
     * {@code INVALID_ARGUMENT}.
     */
    @Override
    public void forgetPack(String name) {
        db.write("forgetPack", c -> {
            int deleted;
            try (PreparedStatement ps = prepare(c, "DELETE FROM packs WHERE name = ? AND retired_at IS NOT NULL")) {
                ps.setString(1, name);
                deleted = ps.executeUpdate();
            }
            if (deleted == 0 && exists(c, "SELECT 1 FROM packs WHERE name = ?", name)) {
                throw CofferException.invalid("pack " + name + " is not retired");
            }
            return null;
        });
    }

    // ---- whole-store views

    @Override
    public StoreStats stats() {
        return db.read("stats", c -> {
            try (PreparedStatement ps = prepare(c, "SELECT "
                    + "(SELECT COUNT(*) FROM objects), (SELECT COALESCE(SUM(size), 0) FROM objects), "
                    + "(SELECT COUNT(*) FROM chunks), (SELECT COALESCE(SUM(length), 0) FROM chunks), "
                    + "(SELECT COUNT(*) FROM packs WHERE retired_at IS NULL), "
                    + "(SELECT COALESCE(SUM(size), 0) FROM packs WHERE retired_at IS NULL)");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new StoreStats(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6));
            }
        });
    }

    @Override
    public List<String> versionIds() {
        return db.read("versionIds", c -> rows(c, "SELECT version_id FROM objects", rs -> rs.getString(1)));
    }

    @Override
    public boolean isEmpty() {
        return db.read("isEmpty", c -> {
            for (String table : List.of("buckets", "objects", "packs", "chunks")) {
                try (PreparedStatement ps = prepare(c, "SELECT 1 FROM " + table + " LIMIT 1");
                     ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
            return true;
        });
    }

    @Override
    public void close() {
        db.close();
    }

    // ---- statements

    private static boolean isForeignKeyViolation(SQLException e) {
        // PostgreSQL reports 23503; SQLite reports SQLITE_CONSTRAINT_FOREIGNKEY (787) with a generic state
        return "23503".equals(e.getSQLState()) || e.getErrorCode() == 787
                || (e.getMessage() != null && e.getMessage().contains("FOREIGN KEY constraint failed"));
    }

    private PreparedStatement prepare(Connection c, String sql) throws SQLException {
        return db.statements().prepare(c, sql);
    }

    private boolean exists(Connection c, String sql, String arg) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            int index = i + 1;
            if (arg == null) {
                ps.setNull(index, Types.NULL);
            } else if (arg instanceof String s) {
                ps.setString(index, s);
            } else if (arg instanceof byte[] b) {
                ps.setBytes(index, b);
            } else if (arg instanceof Long l) {
                ps.setLong(index, l);
            } else if (arg instanceof Integer n) {
                ps.setInt(index, n);
            } else {
                throw new IllegalArgumentException("cannot bind " + arg.getClass());
            }
        }
    }

    private static Object[] concat(Object[] head, Object... tail) {
        Object[] out = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }

    // ---- encodings

    private static long millis(Instant instant) {
        return instant == null ? System.currentTimeMillis() : instant.toEpochMilli();
    }

    /** The UTF-8 bytes of a key; {@code INVALID_ARGUMENT} for a string that is not valid Unicode. */
    static byte[] utf8(String s) {
        try {
            ByteBuffer buffer = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(s));
            byte[] out = new byte[buffer.remaining()];
            buffer.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw CofferException.invalid("key, prefix or delimiter is not valid Unicode");
        }
    }

    private static String string(byte[] utf8) {
        return utf8 == null ? "" : new String(utf8, StandardCharsets.UTF_8);
    }

    static byte[] encodeRefs(List<ChunkId> ids) {
        byte[] out = new byte[ids.size() * ChunkId.LENGTH];
        for (int i = 0; i < ids.size(); i++) {
            ids.get(i).copyTo(out, i * ChunkId.LENGTH);
        }
        return out;
    }

    static List<ChunkId> decodeRefs(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return List.of();
        }
        if (bytes.length % ChunkId.LENGTH != 0) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "corrupt chunk reference list");
        }
        List<ChunkId> out = new ArrayList<>(bytes.length / ChunkId.LENGTH);
        for (int at = 0; at < bytes.length; at += ChunkId.LENGTH) {
            out.add(ChunkId.of(Arrays.copyOfRange(bytes, at, at + ChunkId.LENGTH)));
        }
        return out;
    }
}

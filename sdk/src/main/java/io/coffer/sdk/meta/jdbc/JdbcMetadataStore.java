package io.coffer.sdk.meta.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.Lease;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.meta.PackUsage;
import io.coffer.sdk.meta.PartRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The {@link MetadataStore} over JDBC, in two dialects: SQLite (the embedded default) and PostgreSQL (shared
 * deployments; the SQL is standard SQL plus {@code INSERT ... ON CONFLICT}, so it is meant to run on CockroachDB and
 * YugabyteDB too). Open one with {@link #sqlite} or {@link #postgres}.
 *
 * <p><b>Representation.</b> Keys, prefixes and upload keys are stored as the BLOB/bytea of their UTF-8 bytes, so the
 * database orders them bytewise, which is S3's order ({@link Columns}). A prefix is matched as the index range
 * {@code key >= prefix AND key < successor(prefix)}; a delimiter listing walks the primary-key index and, on meeting a
 * key that contains the delimiter after the prefix, emits the common prefix and seeks past it, so each common prefix
 * costs one index seek ({@link ListingWalk}). The schema lives in versioned resource files applied on open
 * ({@link SchemaMigrations}).
 *
 * <p><b>Reference counts.</b> Every write runs in one transaction that, in this order, registers new packs and chunks
 * ({@code INSERT ... ON CONFLICT DO NOTHING}, unreferenced and "released now" so that the garbage collector's grace
 * period protects them), adds one reference to each chunk of the new record (every update must hit exactly one row,
 * else {@code CONFLICT_RETRY} and a rollback), then releases the references of what it replaced, so a chunk shared by
 * the old and the new record never drops to zero in between. A chunk whose count drops to zero is stamped
 * {@code released_at} ({@link ChunkTable}).
 *
 * <p><b>SQLite.</b> WAL journal (readers never block the writer), {@code synchronous=FULL} (a committed object survives
 * power loss, not just a process crash), a busy timeout (another process may hold the file), foreign keys on. SQLite
 * allows one writer at a time anyway, so the store keeps a single writer connection guarded by a lock, with
 * {@code BEGIN IMMEDIATE} transactions: writes serialize in the JVM instead of failing with {@code SQLITE_BUSY}, and
 * concurrent commits to one key trivially see each other. Writes that queue while another commits are committed
 * together in one transaction, each in a savepoint of its own (group commit: one WAL fsync per group, not per write;
 * no write returns before its transaction is durable; {@link GroupCommit}). Reads use a small fixed pool of separate
 * connections that see the last committed state. Both kinds of connection keep their prepared statements for reuse
 * ({@link StatementCache}).
 *
 * <p><b>PostgreSQL.</b> A HikariCP pool; transactions run at the database's default isolation. A commit locks the
 * bucket row {@code FOR SHARE} (so a concurrent {@code deleteBucket} waits for it) and the current object row
 * {@code FOR UPDATE} (so commits to one key serialize and each replaced record is returned to exactly one commit); an
 * insert that races another insert of the same key ({@code ON CONFLICT DO NOTHING} inserting nothing) restarts the
 * transaction. Serialization failures and deadlocks (SQLState 40001, 40P01) restart the transaction transparently, a
 * bounded number of times, after which the caller gets {@code CONFLICT_RETRY} ({@link Database}). Server error
 * details are turned off on the connections so that exceptions never carry key bytes.
 *
 * <p>What differs between the dialects is in {@link Dialect}; the operations are by table ({@link BucketTable},
 * {@link ObjectTable}, {@link UploadTable}, {@link ChunkTable}, {@link PackTable}, {@link StoreViews},
 * {@link UsageViews}). Keys and manifests are never logged.
 */
public final class JdbcMetadataStore implements MetadataStore {
    private static final int SQLITE_READERS = 4;
    private static final int POSTGRES_POOL = 16;

    private final Database db;
    private final BucketTable buckets;
    private final ChunkTable chunks;
    private final UploadTable uploads;
    private final ObjectTable objects;
    private final VersionTable versions;
    private final PackTable packs;
    private final StoreViews views;
    private final UsageViews usage;
    private final BlockMapTable blockMap;
    private final LeaseTable leases;
    private final LockTable locks;

    private JdbcMetadataStore(Database db) {
        this.db = db;
        this.buckets = new BucketTable(db);
        this.chunks = new ChunkTable(db);
        this.uploads = new UploadTable(db, buckets, chunks);
        this.versions = new VersionTable(db, buckets, chunks);
        this.objects = new ObjectTable(db, buckets, uploads, chunks, versions);
        this.packs = new PackTable(db, chunks);
        this.views = new StoreViews(db);
        this.usage = new UsageViews(db);
        this.blockMap = new BlockMapTable(db);
        this.leases = new LeaseTable(db);
        this.locks = new LockTable(db, versions);
    }

    // ---- factories

    /**
     * Creates an absent database file with mode 0600: it holds object keys and metadata in clear (SQLite gives its
     * -wal and -shm files the database file's permissions).
     */
    private static void createPrivately(Path file) {
        try {
            if (!Files.exists(file) && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.createFile(file,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
        } catch (FileAlreadyExistsException raced) {
            // another opener created it first
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
    }

    /** Opens (creating if needed) a SQLite metadata database in {@code file}, applying schema migrations. */
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
    public void createBucket(Bucket bucket, Map<String, byte[]> configs) {
        buckets.createBucket(bucket, configs);
    }

    @Override
    public Optional<Bucket> bucket(String name) {
        return buckets.bucket(name);
    }

    @Override
    public List<Bucket> buckets() {
        return buckets.buckets();
    }

    @Override
    public Map<String, byte[]> bucketConfigs(String bucket) {
        return buckets.bucketConfigs(bucket);
    }

    @Override
    public void putBucketConfig(String bucket, String name, byte[] document) {
        buckets.putBucketConfig(bucket, name, document);
    }

    @Override
    public void deleteBucket(String name) {
        buckets.deleteBucket(name, uploads);
    }

    // ---- chunk index

    @Override
    public Map<ChunkId, ChunkLocation> locate(Collection<ChunkId> ids) {
        return chunks.locate(ids);
    }

    @Override
    public Map<ChunkId, ChunkLocation> locateForReuse(Collection<ChunkId> ids) {
        return chunks.locateForReuse(ids);
    }

    // ---- objects

    @Override
    public Optional<ObjectRecord> object(String bucket, String key) {
        return objects.object(bucket, key);
    }

    @Override
    public Optional<ObjectRecord> commitObject(ObjectRecord object, NewChunks newChunks, Precondition precondition,
                                               String completesUpload, BucketVersioning versioning) {
        return objects.commitObject(object, newChunks, precondition, completesUpload, versioning);
    }

    @Override
    public Optional<ObjectRecord> completedUpload(String bucket, String key, String uploadId) {
        return objects.completedUpload(bucket, key, uploadId);
    }

    @Override
    public Optional<ObjectRecord> deleteObject(String bucket, String key, String ifMatch) {
        return objects.deleteObject(bucket, key, ifMatch, BucketVersioning.UNVERSIONED, null);
    }

    @Override
    public Optional<ObjectRecord> deleteObject(String bucket, String key, String ifMatch,
                                               BucketVersioning versioning, ObjectRecord marker) {
        return objects.deleteObject(bucket, key, ifMatch, versioning, marker);
    }

    @Override
    public Optional<ObjectRecord> objectVersion(String bucket, String key, String versionId) {
        return versions.objectVersion(bucket, key, versionId);
    }

    @Override
    public Optional<ObjectRecord> deleteVersion(String bucket, String key, String versionId,
                                                Consumer<ObjectLock> guard) {
        return versions.deleteVersion(bucket, key, versionId, (c, version) -> locks.takeForRemoval(c, version, guard));
    }

    @Override
    public ObjectLock objectLock(String versionId) {
        return locks.lockOf(versionId);
    }

    @Override
    public List<String> lockedVersionIds() {
        return locks.lockedVersionIds();
    }

    @Override
    public void putObjectLock(String bucket, String versionId, ObjectLock lock) {
        locks.put(bucket, versionId, lock);
    }

    @Override
    public Optional<ObjectLock> updateObjectLock(String bucket, String key, String clientVersionId,
                                                 BiFunction<ObjectRecord, ObjectLock, ObjectLock> change) {
        return locks.update(bucket, key, clientVersionId, change);
    }

    @Override
    public Optional<ObjectRecord> updateObjectAttributes(String bucket, String key, String clientVersionId,
                                                         Function<ObjectRecord, byte[]> change) {
        return versions.updateAttributes(bucket, key, clientVersionId, change);
    }

    @Override
    public VersionPage listVersions(String bucket, String prefix, String delimiter, String keyMarker,
                                    String versionIdMarker, int maxKeys) {
        return versions.listVersions(bucket, prefix, delimiter, keyMarker, versionIdMarker, maxKeys);
    }

    @Override
    public ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        return objects.listObjects(bucket, prefix, delimiter, after, maxKeys);
    }

    // ---- multipart uploads

    @Override
    public void createUpload(UploadRecord upload) {
        uploads.createUpload(upload);
    }

    @Override
    public Optional<UploadRecord> upload(String uploadId) {
        return uploads.upload(uploadId);
    }

    @Override
    public void commitPart(PartRecord part, NewChunks newChunks) {
        uploads.commitPart(part, newChunks);
    }

    @Override
    public List<PartRecord> parts(String uploadId, int afterPartNumber, int max) {
        return uploads.parts(uploadId, afterPartNumber, max);
    }

    @Override
    public UploadPage listUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                  String uploadIdMarker, int maxUploads) {
        return uploads.listUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
    }

    @Override
    public void abortUpload(String uploadId) {
        uploads.abortUpload(uploadId);
    }

    @Override
    public List<UploadRecord> uploadsInitiatedBefore(Instant cutoff, String afterUploadId, int max) {
        return uploads.uploadsInitiatedBefore(cutoff, afterUploadId, max);
    }

    @Override
    public boolean expireUpload(String uploadId, Instant cutoff) {
        return uploads.expireUpload(uploadId, cutoff);
    }

    // ---- packs and garbage collection

    @Override
    public void registerPack(PackRecord pack, List<ChunkLocation> chunkLocations) {
        packs.registerPack(pack, chunkLocations);
    }

    @Override
    public List<PackRecord> packs() {
        return packs.packs();
    }

    @Override
    public List<PackUsage> packUsage(Instant graceCutoff) {
        return packs.packUsage(graceCutoff);
    }

    @Override
    public List<ChunkLocation> liveChunks(String pack, Instant graceCutoff) {
        return packs.liveChunks(pack, graceCutoff);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Retiring a pack that is unknown or already retired changes nothing. Locations in {@code moved} whose chunk
     * is not (or no longer) in {@code oldPack} are ignored.
     */
    @Override
    public void retirePack(String oldPack, List<ChunkLocation> moved, Instant graceCutoff) {
        packs.retirePack(oldPack, moved, graceCutoff);
    }

    @Override
    public List<String> retiredPacks(Instant cutoff) {
        return packs.retiredPacks(cutoff);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Forgetting an unknown pack does nothing; a pack that is not retired is refused with
     * {@code INVALID_ARGUMENT}.
     */
    @Override
    public void forgetPack(String name) {
        packs.forgetPack(name);
    }

    // ---- whole-store views

    @Override
    public StoreStats stats() {
        return views.stats();
    }

    @Override
    public StorageStats storageStats() {
        return usage.storageStats();
    }

    @Override
    public List<String> versionIds() {
        return views.versionIds();
    }

    @Override
    public boolean isEmpty() {
        return views.isEmpty();
    }

    @Override
    public Lease acquireLease(String name, String holder, Instant now, Instant until) {
        return leases.acquire(name, holder, now, until);
    }

    @Override
    public void releaseLease(String name, String holder) {
        leases.release(name, holder);
    }

    @Override
    public BlockMapStore blockMap() {
        return blockMap;
    }

    @Override
    public void close() {
        db.close();
    }

    // ---- for tests in this package

    /** The reference count of a chunk, or empty if it is not indexed. */
    OptionalLong refCount(ChunkId id) {
        return chunks.refCount(id);
    }

    /**
     * The database's plan for the range query that {@link #listObjects} issues for one seek with {@code prefix}
     * (to check that listings seek an index rather than scan).
     */
    List<String> explainListing(String bucket, String prefix, String after) {
        return objects.explainListing(bucket, prefix, after);
    }

    /** How many SQL statements this store has prepared (each executed once, or once as a batch). */
    long statementCount() {
        return db.statements().prepared();
    }

    /** How many write transactions this store has committed. */
    long writeTransactions() {
        return db.writeTransactions();
    }

    /** How many SQLite writes are waiting for the writer. */
    int queuedWrites() {
        return db.queuedWrites();
    }
}

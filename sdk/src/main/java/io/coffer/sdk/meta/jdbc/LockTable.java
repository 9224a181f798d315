package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.millis;

import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.meta.ObjectRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Object Lock rows (schema 8), one per locked version, by version id. A change reads the row under the version's own
 * row lock ({@link VersionTable#findForUpdate}), the lock a permanent delete of the version takes, so a delete and a
 * retention change of one version see each other on PostgreSQL as on SQLite.
 */
final class LockTable extends Table {
    private final VersionTable versions;

    LockTable(Database db, VersionTable versions) {
        super(db);
        this.versions = versions;
    }

    ObjectLock lockOf(String versionId) {
        return db.read("objectLock", c -> lockOf(c, versionId, ""));
    }

    private ObjectLock lockOf(Connection c, String versionId, String lock) throws SQLException {
        List<ObjectLock> found = rows(c, "SELECT mode, retain_until, legal_hold FROM object_locks WHERE version_id = ?"
                + lock, rs -> {
                    String mode = rs.getString(1);
                    long until = rs.getLong(2);
                    return new ObjectLock(mode == null ? null : ObjectLockMode.valueOf(mode),
                            mode == null ? null : Instant.ofEpochMilli(until), rs.getInt(3) != 0);
                }, versionId);
        return found.isEmpty() ? ObjectLock.NONE : found.get(0);
    }

    List<String> lockedVersionIds() {
        return db.read("lockedVersionIds", c -> rows(c, "SELECT version_id FROM object_locks", rs -> rs.getString(1)));
    }

    /** Sets the lock row of a version (NONE: removes it), without looking for the version. */
    void put(String bucket, String versionId, ObjectLock lock) {
        db.write("putObjectLock", c -> {
            store(c, bucket, versionId, lock);
            return null;
        });
    }

    Optional<ObjectLock> update(String bucket, String key, String clientVersionId,
                                BiFunction<ObjectRecord, ObjectLock, ObjectLock> change) {
        return db.write("updateObjectLock", c -> {
            Optional<ObjectRecord> version = versions.findForUpdate(c, bucket, key, clientVersionId);
            if (version.isEmpty()) {
                return Optional.empty();
            }
            String id = version.get().versionId();
            ObjectLock changed = change.apply(version.get(), lockOf(c, id, dialect.forUpdate));
            store(c, bucket, id, changed);
            return Optional.of(changed);
        });
    }

    /** In a permanent delete's transaction: shows {@code guard} the version's lock (it may throw), then drops it. */
    void takeForRemoval(Connection c, ObjectRecord version, Consumer<ObjectLock> guard) throws SQLException {
        guard.accept(lockOf(c, version.versionId(), dialect.forUpdate));
        delete(c, version.versionId());
    }

    private void store(Connection c, String bucket, String versionId, ObjectLock lock) throws SQLException {
        if (lock.equals(ObjectLock.NONE)) {
            delete(c, versionId);
            return;
        }
        try (PreparedStatement ps = prepare(c, "INSERT INTO object_locks (version_id, bucket, mode, retain_until, "
                + "legal_hold) VALUES (?, ?, ?, ?, ?) ON CONFLICT (version_id) DO UPDATE SET mode = excluded.mode, "
                + "retain_until = excluded.retain_until, legal_hold = excluded.legal_hold")) {
            bind(ps, versionId, bucket, lock.mode() == null ? null : lock.mode().name(),
                    lock.retainUntil() == null ? null : millis(lock.retainUntil()), lock.legalHold() ? 1 : 0);
            ps.executeUpdate();
        }
    }

    private void delete(Connection c, String versionId) throws SQLException {
        try (PreparedStatement ps = prepare(c, "DELETE FROM object_locks WHERE version_id = ?")) {
            bind(ps, versionId);
            ps.executeUpdate();
        }
    }
}

package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockConfiguration;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * S3 Object Lock over the engine, and the one place its rules are enforced. A bucket has Object Lock when it has the
 * configuration document {@value #CONFIG} (then its versioning is enabled and stays so); a version's lock is a row of
 * the metadata store and a sealed record of its own on the backend ({@link ObjectLockRecords}), both written before
 * the version is committed, so a version is never visible without its lock, and reindex restores it.
 *
 * <p>The rules: a version whose legal hold is on, or whose retention date is in the future, cannot be removed for
 * good: under COMPLIANCE by nobody, under GOVERNANCE only by a caller that bypasses governance retention; a retention
 * cannot be shortened, weakened or removed under the same terms ({@link #checkChange}). Every permanent delete passes
 * {@link #deletionGuard} into the metadata transaction that removes the version (DELETE with a version id,
 * DeleteObjects, anything expiring versions through {@code Coffer.deleteObjectVersion}); a delete without a version id
 * adds a delete marker and removes nothing, and garbage collection counts every version that has a row as live.
 */
final class ObjectLocks {
    static final String CONFIG = "object-lock";

    /** Changes of one version are serialized in this process, so the last record written is the last row committed. */
    private final Object[] changeStripes = new Object[64];
    private final EngineContext ctx;
    private final MetadataStore meta;
    private final Buckets buckets;

    ObjectLocks(EngineContext ctx, Buckets buckets) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.buckets = buckets;
        for (int i = 0; i < changeStripes.length; i++) {
            changeStripes[i] = new Object();
        }
    }

    // ---- bucket configuration

    Optional<ObjectLockConfiguration> configuration(String bucket, Bucket known) {
        return buckets.config(bucket, known, CONFIG).map(ObjectLocks::decode);
    }

    static Optional<ObjectLockConfiguration> configuration(Map<String, byte[]> configs) {
        return Optional.ofNullable(configs.get(CONFIG)).map(ObjectLocks::decode);
    }

    /** A bucket with Object Lock: created with versioning enabled and the configuration set, all at once. */
    Bucket createBucket(String bucket, String owner, String region) {
        return buckets.create(bucket, owner, region, Map.of(
                VersioningConfig.NAME, VersioningConfig.encode(BucketVersioning.ENABLED),
                CONFIG, encode(ObjectLockConfiguration.NO_DEFAULT)));
    }

    /**
     * Sets the configuration. A bucket without Object Lock gets it only while its versioning is enabled (S3 allows
     * enabling Object Lock on such a bucket); InvalidBucketState otherwise.
     */
    void putConfiguration(String bucket, Bucket known, ObjectLockConfiguration configuration) {
        if (configuration(bucket, known).isEmpty()
                && VersioningConfig.decode(buckets.config(bucket, known, VersioningConfig.NAME).orElse(null))
                != BucketVersioning.ENABLED) {
            throw CofferException.of(ErrorCode.INVALID_BUCKET_STATE,
                    "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration");
        }
        buckets.putConfig(bucket, known, CONFIG, encode(configuration));
    }

    /** The versioning of a bucket with Object Lock cannot be suspended (InvalidBucketState), as on S3. */
    void checkVersioningChange(String bucket, Bucket known, BucketVersioning state) {
        if (state != BucketVersioning.ENABLED && configuration(bucket, known).isPresent()) {
            throw CofferException.of(ErrorCode.INVALID_BUCKET_STATE,
                    "An Object Lock configuration is present on this bucket, so the versioning state cannot be "
                            + "changed.");
        }
    }

    /** The document: {@code Enabled}, then the default retention's mode, unit and amount if there is one. */
    static byte[] encode(ObjectLockConfiguration c) {
        String doc = c.defaultMode() == null ? "Enabled" : "Enabled " + c.defaultMode().name()
                + (c.defaultDays() > 0 ? " days " + c.defaultDays() : " years " + c.defaultYears());
        return doc.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    static ObjectLockConfiguration decode(byte[] document) {
        String[] parts = new String(document, java.nio.charset.StandardCharsets.US_ASCII).split(" ");
        try {
            if (parts.length == 1 && parts[0].equals("Enabled")) {
                return ObjectLockConfiguration.NO_DEFAULT;
            }
            ObjectLockMode mode = parts.length == 4 && parts[0].equals("Enabled")
                    ? ObjectLockMode.parse(parts[1]) : null;
            if (mode != null && (parts[2].equals("days") || parts[2].equals("years"))) {
                int amount = Integer.parseInt(parts[3]);
                return parts[2].equals("days") ? new ObjectLockConfiguration(mode, amount, 0)
                        : new ObjectLockConfiguration(mode, 0, amount);
            }
        } catch (NumberFormatException | CofferException e) {
            // reported below
        }
        throw CofferException.of(ErrorCode.INTERNAL_ERROR, "unreadable object lock configuration stored");
    }

    // ---- new versions

    /**
     * The lock a new version of a bucket with these configuration documents gets: the one its write asked for
     * ({@code requested}, not NONE; InvalidRequest in a bucket without Object Lock), else the bucket's default
     * retention, else none.
     */
    static ObjectLock forNewVersion(Map<String, byte[]> configs, ObjectLock requested, Instant now) {
        Optional<ObjectLockConfiguration> configuration = configuration(configs);
        if (requested != null && !requested.equals(ObjectLock.NONE)) {
            if (configuration.isEmpty()) {
                throw CofferException.of(ErrorCode.INVALID_REQUEST, "Bucket is missing Object Lock Configuration");
            }
            checkFuture(requested, now);
            return requested;
        }
        return configuration.map(c -> c.defaultLock(now)).orElse(ObjectLock.NONE);
    }

    /**
     * Stores the lock of a version about to be committed (its sealed record, then its row), so that it is never
     * visible unlocked; nothing for NONE. The caller forgets it ({@link #forget}) if the commit fails.
     */
    void lockBeforeCommit(String bucket, String key, String versionId, ObjectLock lock) {
        if (lock.equals(ObjectLock.NONE)) {
            return;
        }
        writeRecord(bucket, key, versionId, lock);
        try {
            meta.putObjectLock(bucket, versionId, lock);
        } catch (RuntimeException e) {
            ctx.deleteQuietly(BackendLayout.lock(versionId));
            throw e;
        }
    }

    /** Drops the lock of a version that was never committed, or that is gone: row and record (best effort). */
    void forget(String bucket, String versionId) {
        try {
            meta.putObjectLock(bucket, versionId, ObjectLock.NONE);
        } finally {
            ctx.deleteQuietly(BackendLayout.lock(versionId));
        }
    }

    /** Deletes the record of a version a permanent delete removed (its row went in the delete's transaction). */
    void removed(String versionId) {
        ctx.deleteQuietly(BackendLayout.lock(versionId));
    }

    // ---- existing versions

    ObjectLock lockOf(ObjectRecord version) {
        return meta.objectLock(version.versionId());
    }

    /**
     * Sets the retention of {@code version} (mode null: removes it) or, when {@code legalHold} is non-null, its legal
     * hold, under {@link #checkChange}; the metadata transaction decides under the version's row lock. The sealed
     * record is never left weaker than the row, whatever instant a crash comes at (reindex must not unlock a
     * version): a change that strengthens the lock writes the record first, one that weakens it (a legal hold off,
     * a governance retention shortened by a bypassing caller) commits the row first. If the transaction refuses, or
     * decided from another lock (a concurrent change), the record is written again with what the store holds.
     */
    ObjectLock change(ObjectRecord version, ObjectRetention retention, Boolean legalHold, boolean bypassGovernance) {
        if (version.deleteMarker()) {
            throw CofferException.of(ErrorCode.METHOD_NOT_ALLOWED,
                    "The specified method is not allowed against this resource.");
        }
        Instant now = Instant.now();
        if (retention != null) {
            checkFuture(new ObjectLock(retention.mode(), retention.until(), false), now);
        }
        synchronized (changeStripes[Math.floorMod(version.versionId().hashCode(), changeStripes.length)]) {
            return storeChange(version, retention, legalHold, bypassGovernance, now);
        }
    }

    private ObjectLock storeChange(ObjectRecord version, ObjectRetention retention, Boolean legalHold,
                                   boolean bypassGovernance, Instant now) {
        String bucket = version.bucket();
        String key = version.key();
        String id = version.versionId();
        ObjectLock current = lockOf(version);
        ObjectLock intended = apply(current, retention, legalHold, bypassGovernance, now);
        boolean recordFirst = intended.covers(current);
        if (recordFirst) {
            writeRecord(bucket, key, id, intended);
        }
        Optional<ObjectLock> stored;
        try {
            stored = meta.updateObjectLock(bucket, key, version.clientVersionId(),
                    (v, held) -> apply(held, retention, legalHold, bypassGovernance, now));
        } catch (RuntimeException e) {
            if (recordFirst) {
                writeRecord(bucket, key, id, meta.objectLock(id));
            }
            throw e;
        }
        if (stored.isEmpty()) {
            // removed meanwhile: its record goes too
            removed(id);
            throw CofferException.of(ErrorCode.NO_SUCH_VERSION, "The specified version does not exist.");
        }
        if (!recordFirst || !stored.get().equals(intended)) {
            writeRecord(bucket, key, id, stored.get());
        }
        return stored.get();
    }

    /** A retention to set: mode and date, or both null to remove it. */
    record ObjectRetention(ObjectLockMode mode, Instant until) {
    }

    private static ObjectLock apply(ObjectLock current, ObjectRetention retention, Boolean legalHold,
                                    boolean bypassGovernance, Instant now) {
        if (legalHold != null) {
            return current.withLegalHold(legalHold);
        }
        ObjectLock wanted = current.withRetention(retention.mode(), retention.until());
        checkChange(current, wanted, bypassGovernance, now);
        return wanted;
    }

    // ---- the rules

    /**
     * A retention may always be set where none holds, and lengthened in the same mode; while one holds, it cannot be
     * shortened, removed or given another mode (AccessDenied; ceph/s3-tests checks GOVERNANCE to COMPLIANCE too),
     * except that a GOVERNANCE retention yields to a caller that bypasses governance retention.
     */
    static void checkChange(ObjectLock current, ObjectLock wanted, boolean bypassGovernance, Instant now) {
        if (!current.retainedAt(now)) {
            return;
        }
        boolean weaker = !wanted.hasRetention() || wanted.retainUntil().isBefore(current.retainUntil())
                || wanted.mode() != current.mode();
        if (!weaker) {
            return;
        }
        if (current.mode() == ObjectLockMode.GOVERNANCE && bypassGovernance) {
            return;
        }
        throw accessDenied();
    }

    /** Refuses the permanent removal of a locked version (AccessDenied), in the removing transaction. */
    static Consumer<ObjectLock> deletionGuard(boolean bypassGovernance) {
        Instant now = Instant.now();
        return lock -> {
            if (lock.legalHold()) {
                throw accessDenied();
            }
            if (lock.retainedAt(now) && (lock.mode() == ObjectLockMode.COMPLIANCE || !bypassGovernance)) {
                throw accessDenied();
            }
        };
    }

    private static void checkFuture(ObjectLock lock, Instant now) {
        if (lock.hasRetention() && !lock.retainUntil().isAfter(now)) {
            throw CofferException.of(ErrorCode.INVALID_ARGUMENT, "The retain until date must be in the future!");
        }
    }

    private static CofferException accessDenied() {
        return CofferException.of(ErrorCode.ACCESS_DENIED, "Access Denied because object protected by object lock.");
    }

    /** Writes a version's record; a version without a lock has none (deleted, best effort: reindex errs locked). */
    private void writeRecord(String bucket, String key, String versionId, ObjectLock lock) {
        if (lock.equals(ObjectLock.NONE)) {
            removed(versionId);
            return;
        }
        try {
            ctx.config.blobs().put(BackendLayout.lock(versionId), BlobContent.of(
                    ObjectLockRecords.seal(ctx.config.masterKey(), bucket, key, versionId, lock)));
        } catch (IOException e) {
            throw backendFailure("could not write the object lock record", e);
        }
    }
}

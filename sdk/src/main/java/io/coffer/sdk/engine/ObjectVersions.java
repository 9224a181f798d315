package io.coffer.sdk.engine;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.DeletedVersion;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Names;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bucket versioning over the engine (S3's rules): the bucket's state, deletes that add delete markers or remove one
 * version for good, and ListObjectVersions. Every version is a sealed manifest of its own (a delete marker an empty
 * one), so nothing is copied and reindex restores versions from the backend; writes take the bucket's state in
 * {@link ObjectCommits}.
 */
final class ObjectVersions {
    private final MetadataStore meta;
    private final Buckets buckets;
    private final ObjectCommits commits;
    private final ObjectLocks locks;

    ObjectVersions(EngineContext ctx, Buckets buckets, ObjectCommits commits, ObjectLocks locks) {
        this.meta = ctx.config.metadata();
        this.buckets = buckets;
        this.commits = commits;
        this.locks = locks;
    }

    BucketVersioning state(String bucket, Bucket known) {
        return VersioningConfig.decode(buckets.config(bucket, known, VersioningConfig.NAME).orElse(null));
    }

    /** Enables or suspends versioning; a bucket cannot go back to unversioned (S3 has no such status). */
    void setState(String bucket, Bucket known, BucketVersioning state) {
        if (state == null || state == BucketVersioning.UNVERSIONED) {
            throw CofferException.of(ErrorCode.INVALID_ARGUMENT,
                    "Versioning can only be Enabled or Suspended once a bucket exists");
        }
        locks.checkVersioningChange(bucket, known, state);
        buckets.putConfig(bucket, known, VersioningConfig.NAME, VersioningConfig.encode(state));
    }

    /**
     * S3's DeleteObject: with a version id, that version is removed for good (nothing happens if there is none) unless
     * its Object Lock forbids it (AccessDenied; {@code bypassGovernance} lifts a GOVERNANCE retention);
     * without one, the bucket's state decides: unversioned, the object is removed; enabled or suspended, a delete
     * marker becomes current ({@code ifMatch} applies to the current version, as S3 does).
     */
    DeletedVersion delete(String bucket, Bucket known, String key, String versionId, String ifMatch,
                          boolean bypassGovernance) {
        Names.checkKey(key);
        buckets.head(bucket, known);
        if (versionId != null) {
            if (!BucketVersioning.isWellFormedId(versionId)) {
                throw CofferException.of(ErrorCode.INVALID_ARGUMENT, "Invalid version id specified");
            }
            // the Object Lock rules decide inside the removing transaction
            AtomicBoolean hadLock = new AtomicBoolean();
            Optional<ObjectRecord> removed = meta.deleteVersion(bucket, key, versionId,
                    ObjectLocks.deletionGuard(bypassGovernance).andThen(l -> hadLock.set(!l.equals(ObjectLock.NONE))));
            removed.ifPresent(old -> {
                commits.forgetManifest(old.versionId());
                if (hadLock.get()) {
                    locks.removed(old.versionId());
                }
            });
            return new DeletedVersion(versionId, removed.map(ObjectRecord::deleteMarker).orElse(false));
        }
        BucketVersioning state = state(bucket, known);
        if (state == BucketVersioning.UNVERSIONED) {
            meta.deleteObject(bucket, key, ifMatch).ifPresent(old -> commits.forgetManifest(old.versionId()));
            return DeletedVersion.UNVERSIONED;
        }
        ObjectRecord marker = commits.sealDeleteMarker(bucket, key, state == BucketVersioning.SUSPENDED);
        Optional<ObjectRecord> removed;
        try {
            removed = meta.deleteObject(bucket, key, ifMatch, state, marker);
        } catch (RuntimeException e) {
            commits.forgetManifest(marker.versionId());
            throw e;
        }
        removed.ifPresent(old -> commits.forgetManifest(old.versionId()));
        return new DeletedVersion(marker.clientVersionId(), true);
    }

    VersionPage list(String bucket, String prefix, String delimiter, String keyMarker, String versionIdMarker,
                     int maxKeys) {
        if (maxKeys < 0) {
            throw CofferException.invalid("max-keys must be non-negative");
        }
        if (versionIdMarker != null && !BucketVersioning.isWellFormedId(versionIdMarker)) {
            throw CofferException.of(ErrorCode.INVALID_ARGUMENT, "Invalid version id specified");
        }
        return meta.listVersions(bucket, prefix == null ? "" : prefix,
                delimiter == null || delimiter.isEmpty() ? null : delimiter, keyMarker, versionIdMarker,
                Math.min(maxKeys, Engine.MAX_LIST));
    }
}

package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestCodec;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committing object versions in the order that makes a crash at any instant lose no committed object
 * (docs/FORMAT.md, "Invariants"): packs are uploaded first, then the sealed manifest blob, then one metadata
 * transaction commits the object and its references; only after that commit is a replaced version's manifest blob
 * deleted. A crash before the commit leaves unreferenced blobs that fsck reports as orphans and garbage collection
 * removes after its grace period; a crash after it leaves nothing to repair.
 */
final class ObjectCommits {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectCommits.class);

    private final EngineContext ctx;
    private final ObjectLocks locks;

    ObjectCommits(EngineContext ctx, ObjectLocks locks) {
        this.ctx = ctx;
        this.locks = locks;
    }

    /**
     * Writes the manifest blob (while the writer's last pack may still be uploading), waits until both are durable,
     * then commits; the replaced version's manifest is forgotten after the commit. An inline object's manifest goes
     * into a manifest group instead ({@link ManifestGroups}), which gives it its version id.
     */
    ObjectInfo commit(Manifest unversioned, NewChunks newChunks, Precondition precondition, String completesUpload,
                      ObjectWriter writer) {
        return commit(unversioned, newChunks, precondition, completesUpload, writer, ObjectLock.NONE);
    }

    /**
     * Commits like {@link #commit(Manifest, NewChunks, Precondition, String, ObjectWriter)} a version that gets the
     * Object Lock its write asked for ({@code requestedLock}, or NONE), else its bucket's default retention
     * ({@link ObjectLocks#forNewVersion}); both bucket documents come from one (cached) read.
     */
    ObjectInfo commit(Manifest unversioned, NewChunks newChunks, Precondition precondition, String completesUpload,
                      ObjectWriter writer, ObjectLock requestedLock) {
        Map<String, byte[]> configs = ctx.bucketCache.configs(unversioned.bucket());
        BucketVersioning versioning = VersioningConfig.decode(configs.get(VersioningConfig.NAME));
        ObjectLock lock = ObjectLocks.forNewVersion(configs, requestedLock, Instant.now());
        return commit(unversioned.withNullVersion(versioning != BucketVersioning.ENABLED), newChunks, precondition,
                completesUpload, writer, versioning, lock);
    }

    ObjectInfo commit(Manifest unversioned, NewChunks newChunks, Precondition precondition, String completesUpload,
                      ObjectWriter writer, BucketVersioning versioning) {
        return commit(unversioned, newChunks, precondition, completesUpload, writer, versioning, ObjectLock.NONE);
    }

    /**
     * Commits like {@link #commit(Manifest, NewChunks, Precondition, String, ObjectWriter)} under the given versioning
     * state, the manifest's null-version flag as it is ({@code UNVERSIONED} rewrites the current version in place).
     */
    ObjectInfo commit(Manifest unversioned, NewChunks newChunks, Precondition precondition, String completesUpload,
                      ObjectWriter writer, BucketVersioning versioning, ObjectLock lock) {
        Manifest m;
        byte[] sealed;
        try {
            if (unversioned.isInline()) {
                ManifestGroups.Member member = ctx.manifestGroups.write(unversioned);
                m = member.manifest();
                sealed = member.sealed();
            } else {
                m = unversioned;
                sealed = StoredRecords.sealManifest(ctx.config.masterKey(), m);
                ctx.config.blobs().put(BackendLayout.manifest(m.versionId()), BlobContent.of(sealed));
            }
        } catch (IOException e) {
            throw backendFailure("could not write the manifest", e);
        }
        if (writer != null) {
            try {
                awaitUploads(writer);
            } catch (RuntimeException e) {
                forgetManifest(m.versionId());
                throw e;
            }
        }
        try {
            locks.lockBeforeCommit(m.bucket(), m.key(), m.versionId(), lock);
        } catch (RuntimeException e) {
            forgetManifest(m.versionId());
            throw e;
        }
        ObjectRecord record = new ObjectRecord(m.bucket(), m.key(), m.versionId(), m.size(), m.etag(),
                m.lastModified(), ManifestCodec.encodeAttributes(m), sealed,
                m.distinctChunkIds(), m.nullVersion(), false);
        Optional<ObjectRecord> replaced;
        try {
            replaced = ctx.config.metadata().commitObject(record, newChunks, precondition, completesUpload,
                    versioning);
        } catch (RuntimeException e) {
            forgetManifest(m.versionId());
            if (!lock.equals(ObjectLock.NONE)) {
                locks.forget(m.bucket(), m.versionId());
            }
            forgetIfCollected(e, record.chunkRefs());
            throw e;
        }
        ctx.committed(newChunks.chunks());
        replaced.ifPresent(old -> forgetManifest(old.versionId()));
        return new ObjectInfo(m.bucket(), m.key(), m.size(), m.etag(), m.lastModified(), m.attributes(),
                m.partSizes(), m.partChecksums(), m.nullVersion() ? null : m.versionId());
    }

    /**
     * Seals a new delete marker of {@code key} into a manifest group (reindex restores it from there) and returns its
     * metadata row, not yet committed: the caller commits it or, when that fails, forgets its manifest.
     */
    ObjectRecord sealDeleteMarker(String bucket, String key, boolean nullVersion) {
        Manifest marker = Manifest.deleteMarker(bucket, key, BackendLayout.newId(),
                Instant.now().truncatedTo(ChronoUnit.MILLIS), nullVersion);
        ManifestGroups.Member member;
        try {
            member = ctx.manifestGroups.write(marker);
        } catch (IOException e) {
            throw backendFailure("could not write the delete marker", e);
        }
        Manifest m = member.manifest();
        return new ObjectRecord(bucket, key, m.versionId(), 0, "", m.lastModified(), ManifestCodec.encodeAttributes(m),
                member.sealed(), List.of(), nullVersion, true);
    }

    /**
     * Makes a version that is no longer (or never was) committed invisible to reindex: its own manifest blob is
     * deleted; a grouped one gets a tombstone (its group is deleted by gc once no member is live). Best effort: fsck
     * reports what is left, as an orphan.
     */
    void forgetManifest(String versionId) {
        if (!BackendLayout.isGrouped(versionId)) {
            ctx.deleteQuietly(BackendLayout.manifest(versionId));
            return;
        }
        String tombstone = BackendLayout.tombstone(versionId);
        try {
            ctx.config.blobs().put(tombstone,
                    BlobContent.of(StoredRecords.sealTombstone(ctx.config.masterKey(), versionId)));
        } catch (IOException e) {
            LOG.warn("could not write tombstone {} (fsck reports the version as an orphan): {}", tombstone,
                    e.toString());
        }
    }

    /**
     * After a commit failed with CONFLICT_RETRY (a chunk it referenced may have been collected, which the holds of
     * {@link EngineContext#reusable} make possible only for a write slower than the grace period allows), forgets
     * what the caches say about its chunks: the client's retry looks them up again and stores what is gone.
     */
    static void forgetIfCollected(RuntimeException e, EngineContext ctx, List<ChunkId> chunkRefs) {
        if (e instanceof CofferException ce && ce.code() == ErrorCode.CONFLICT_RETRY) {
            ctx.forget(chunkRefs);
        }
    }

    private void forgetIfCollected(RuntimeException e, List<ChunkId> chunkRefs) {
        forgetIfCollected(e, ctx, chunkRefs);
    }

    /**
     * Waits until the writer's packs are durable (a backend failure becomes InternalError), then checks that the
     * write is still young enough to commit ({@link ObjectWriter#checkCommitWindow}).
     */
    static void awaitUploads(ObjectWriter writer) {
        try {
            writer.awaitUploads();
        } catch (IOException e) {
            throw backendFailure("could not store the object's data", e);
        }
        writer.checkCommitWindow();
    }

    /**
     * Writes a client's body through the writer: a body that cannot be read is IncompleteBody (or the error its
     * stream raised), a failed backend write InternalError.
     */
    static ObjectWriter.Result writeBody(ObjectWriter writer, InputStream body) {
        try {
            return writer.write(new ClientBody(body));
        } catch (ClientBody.ReadFailure e) {
            if (e.getCause() instanceof CofferException ce) {
                throw ce;
            }
            if (e.getCause() != null && e.getCause().getCause() instanceof CofferException ce) {
                throw ce;
            }
            throw CofferException.of(ErrorCode.INCOMPLETE_BODY, "The request body could not be read: "
                    + e.getCause().getMessage(), e);
        } catch (IOException e) {
            throw backendFailure("could not store the object's data", e);
        }
    }
}

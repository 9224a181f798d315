package io.coffer.sdk.meta;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.crypto.ChunkId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Everything Coffer knows about its namespace besides the blobs themselves, with the transactions that keep chunk
 * reference counts exact.
 *
 * <p>Invariants every implementation keeps at all times (the contract test checks them):
 * <ul>
 *   <li>A chunk's reference count equals the number of committed objects plus uploaded parts whose
 *       {@code chunkRefs} contain it. Each write method below changes counts and rows in one transaction.</li>
 *   <li>A referenced chunk is never removed from the index; an unreferenced one is removed only by
 *       {@link #retirePack} after its grace period.</li>
 *   <li>Keys compare as UTF-8 bytes (S3 order); listings use index range seeks, never a full scan.</li>
 * </ul>
 * Errors are {@link io.coffer.sdk.CofferException}s with the {@link io.coffer.sdk.ErrorCode} named on each method;
 * anything else is an {@link io.coffer.sdk.ErrorCode#INTERNAL_ERROR}. All methods are thread-safe.
 */
public interface MetadataStore extends AutoCloseable {

    // ---- buckets

    /** Creates a bucket; {@code BUCKET_ALREADY_OWNED_BY_YOU} if its owner already has it, else {@code BUCKET_ALREADY_EXISTS}. */
    default void createBucket(Bucket bucket) {
        createBucket(bucket, Map.of());
    }

    /**
     * Creates a bucket with its first configuration documents by name, in one transaction (a bucket created with
     * Object Lock is never seen without it); refused as {@link #createBucket(Bucket)} is.
     */
    void createBucket(Bucket bucket, Map<String, byte[]> configs);

    Optional<Bucket> bucket(String name);

    /** A bucket's configuration documents by name (tagging, CORS ...); empty when it has none or does not exist. */
    Map<String, byte[]> bucketConfigs(String bucket);

    /**
     * Sets ({@code document} non-null) or removes a bucket's configuration document {@code name}
     * ({@code NO_SUCH_BUCKET} if the bucket is missing); deleting the bucket deletes its documents.
     */
    void putBucketConfig(String bucket, String name, byte[] document);

    /** All buckets (of every owner) in name order. */
    List<Bucket> buckets();

    /**
     * Deletes a bucket that holds no object ({@code NO_SUCH_BUCKET}, {@code BUCKET_NOT_EMPTY}), aborting its uploads
     * in progress as {@link #abortUpload} does, in the same transaction.
     */
    void deleteBucket(String name);

    // ---- chunk index

    /** Locations of those of {@code ids} that are indexed; absent ids are missing from the map. */
    Map<ChunkId, ChunkLocation> locate(Collection<ChunkId> ids);

    /**
     * Locations of those of {@code ids} that are indexed, for a write about to reference them (deduplication): each
     * unreferenced one is held, its release time set to now, so that garbage collection keeps it for a grace period
     * from now. An id that garbage collection removed before it could be held is absent from the map, and the write
     * stores the chunk anew.
     */
    Map<ChunkId, ChunkLocation> locateForReuse(Collection<ChunkId> ids);

    // ---- objects

    Optional<ObjectRecord> object(String bucket, String key);

    /**
     * Commits a write in one transaction: checks the bucket exists ({@code NO_SUCH_BUCKET}) and the precondition
     * ({@code PRECONDITION_FAILED}; {@code NO_SUCH_KEY} for If-Match on a missing key); registers {@code newChunks};
     * adds one reference to every id in {@code object.chunkRefs()} ({@code CONFLICT_RETRY} if one is no longer
     * indexed, and then nothing changes); replaces the current object under the key, releasing its references.
     * When {@code completesUpload} is not null the upload must exist ({@code NO_SUCH_UPLOAD}); its parts' references
     * are released and the upload and its parts deleted in the same transaction, and the object remembers the
     * upload it was completed from (see {@link #completedUpload}).
     *
     * @return the object that was replaced, so the caller can delete its manifest blob
     */
    default Optional<ObjectRecord> commitObject(ObjectRecord object, NewChunks newChunks, Precondition precondition,
                                                String completesUpload) {
        return commitObject(object, newChunks, precondition, completesUpload, BucketVersioning.UNVERSIONED);
    }

    /**
     * Commits a write like {@link #commitObject(ObjectRecord, NewChunks, Precondition, String)} under the bucket's
     * versioning state. {@code UNVERSIONED}: the current version is replaced whatever it is (also used to rewrite a
     * version in place). {@code ENABLED}: the current version becomes noncurrent, keeping its references, and nothing
     * is replaced. {@code SUSPENDED}: the key's null version (current or not) is replaced, a current version that is
     * not the null version becomes noncurrent. Preconditions see only the current version (a current delete marker is
     * no object).
     *
     * @return the version that was removed, so the caller can delete its manifest blob
     */
    Optional<ObjectRecord> commitObject(ObjectRecord object, NewChunks newChunks, Precondition precondition,
                                        String completesUpload, BucketVersioning versioning);

    /**
     * The current object under the key if it was committed by completing {@code uploadId} (a later write to the key
     * forgets that); empty otherwise.
     */
    Optional<ObjectRecord> completedUpload(String bucket, String key, String uploadId);

    /** Deletes an object, releasing its references; empty if there was none (not an error). */
    default Optional<ObjectRecord> deleteObject(String bucket, String key) {
        return deleteObject(bucket, key, null);
    }

    /**
     * Deletes an object like {@link #deleteObject(String, String)} if its ETag matches {@code ifMatch} (null: no
     * condition), checked in the delete's transaction: {@code PRECONDITION_FAILED} when it does not match,
     * {@code NO_SUCH_KEY} when there is no object to match.
     */
    Optional<ObjectRecord> deleteObject(String bucket, String key, String ifMatch);

    /**
     * A delete without a version id under the bucket's versioning state. {@code UNVERSIONED}: as
     * {@link #deleteObject(String, String, String)}, {@code marker} unused (may be null). {@code ENABLED}: the current
     * version becomes noncurrent and {@code marker} (a delete marker, not the null version) becomes current, also when
     * the key has no object. {@code SUSPENDED}: the null version is removed, a current version that is not it becomes
     * noncurrent, and {@code marker} (the null version) becomes current. {@code ifMatch} as above.
     *
     * @return the version that was removed, so the caller can delete its manifest blob
     */
    Optional<ObjectRecord> deleteObject(String bucket, String key, String ifMatch, BucketVersioning versioning,
                                        ObjectRecord marker);

    /**
     * The version of a key with the client's version id ({@code null} for the null version), a delete marker
     * included; empty if there is none.
     */
    Optional<ObjectRecord> objectVersion(String bucket, String key, String versionId);

    /**
     * Removes one version for good (S3's DELETE with a version id), releasing its references; when it was current
     * the next newest becomes current (a delete marker stays one). Empty, changing nothing, if there is no such
     * version.
     */
    default Optional<ObjectRecord> deleteVersion(String bucket, String key, String versionId) {
        return deleteVersion(bucket, key, versionId, lock -> { });
    }

    /**
     * Removes one version for good like {@link #deleteVersion(String, String, String)}, after showing {@code guard},
     * inside the delete's transaction, the version's Object Lock ({@link ObjectLock#NONE} if it has none): the guard
     * throws to refuse the delete, which then changes nothing. The version's lock row goes with it. The engine passes
     * the Object Lock rules here (io.coffer.sdk.engine.ObjectLocks); the guardless form above checks nothing.
     */
    Optional<ObjectRecord> deleteVersion(String bucket, String key, String versionId, Consumer<ObjectLock> guard);

    // ---- Object Lock (schema 8): one row per locked version, by the version's id (ObjectRecord#versionId)

    /** The Object Lock of the version with this id; {@link ObjectLock#NONE} if it has none. */
    ObjectLock objectLock(String versionId);

    /** The ids of every version with an Object Lock row (fsck: each committed one must have its sealed record). */
    List<String> lockedVersionIds();

    /**
     * Sets the lock of a version ({@link ObjectLock#NONE}: removes it) without looking for the version: for a version
     * about to be committed (its lock is stored first, so it is never visible unlocked) or one that was never
     * committed or is gone.
     */
    void putObjectLock(String bucket, String versionId, ObjectLock lock);

    /**
     * Changes the lock of the version with the client's version id ({@code null}: the key's current version) in one
     * transaction, the version's row locked as a delete of it locks it: {@code change} gets the version and its lock
     * and returns the new lock, or throws to refuse. Empty, changing nothing, if there is no such version.
     */
    Optional<ObjectLock> updateObjectLock(String bucket, String key, String clientVersionId,
                                          BiFunction<ObjectRecord, ObjectLock, ObjectLock> change);

    /**
     * Replaces the attributes (the engine's encoding) of the version with the client's version id ({@code null}: the
     * key's current version) in one transaction, the version's row locked as a delete of it locks it: {@code change}
     * gets the version as stored and returns its new attributes, or throws to refuse, which changes nothing; it may
     * run more than once (a restarted transaction). The version keeps its id, manifest and references: S3's object
     * tagging and ACL actions change no version. Empty, changing nothing, if there is no such version; else the
     * version as it is now.
     */
    Optional<ObjectRecord> updateObjectAttributes(String bucket, String key, String clientVersionId,
                                                  Function<ObjectRecord, byte[]> change);

    /**
     * Lists versions and delete markers of keys starting with {@code prefix}, by key then newest first, after the
     * version {@code versionIdMarker} of {@code keyMarker} (null version id marker: after every version of
     * keyMarker; null key marker: from the start), grouping as {@link #listObjects} does. A version id marker that
     * names no version of keyMarker resumes after keyMarker. Costs index seeks proportional to the page.
     * {@code NO_SUCH_BUCKET} if the bucket does not exist.
     */
    VersionPage listVersions(String bucket, String prefix, String delimiter, String keyMarker,
                             String versionIdMarker, int maxKeys);

    /**
     * Lists keys of {@code bucket} that start with {@code prefix} and sort after {@code after} (exclusive; null for
     * the start), grouping keys that contain {@code delimiter} after the prefix into common prefixes (each common
     * prefix counts toward {@code maxKeys}, as in S3). {@code NO_SUCH_BUCKET} if the bucket does not exist.
     * Each common prefix costs one index seek, whatever the number of keys under it.
     */
    ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys);

    // ---- multipart uploads

    /** Registers a new upload ({@code NO_SUCH_BUCKET} if the bucket is missing). */
    void createUpload(UploadRecord upload);

    Optional<UploadRecord> upload(String uploadId);

    /**
     * Commits one part like {@link #commitObject}: registers {@code newChunks}, references {@code part.chunkRefs()},
     * and replaces a part with the same number (releasing it). {@code NO_SUCH_UPLOAD} if the upload is gone.
     */
    void commitPart(PartRecord part, NewChunks newChunks);

    /** Parts of an upload with part numbers above {@code afterPartNumber}, ascending, at most {@code max}. */
    List<PartRecord> parts(String uploadId, int afterPartNumber, int max);

    /** In-progress uploads of a bucket, ordered by (key, upload id), after the given markers (null for none). */
    UploadPage listUploads(String bucket, String prefix, String delimiter, String keyMarker, String uploadIdMarker,
                           int maxUploads);

    /** Deletes an upload and its parts, releasing their references; {@code NO_SUCH_UPLOAD} if there is none. */
    void abortUpload(String uploadId);

    /**
     * Uploads initiated before {@code cutoff} (of every bucket) whose id sorts after {@code afterUploadId} (null: from
     * the start), in upload id order, at most {@code max}: the candidates for expiry, one page at a time.
     */
    List<UploadRecord> uploadsInitiatedBefore(Instant cutoff, String afterUploadId, int max);

    /**
     * Aborts an upload as {@link #abortUpload} does, in one transaction, if it still exists and was initiated before
     * {@code cutoff}; false, changing nothing, if it is gone (completed or aborted meanwhile) or younger.
     */
    boolean expireUpload(String uploadId, Instant cutoff);

    // ---- packs and garbage collection

    /**
     * Registers a pack and its chunks without referencing them (used by reindex and by pack rewrites before they
     * move chunks); ids already indexed keep their location.
     */
    void registerPack(PackRecord pack, List<ChunkLocation> chunks);

    /** Every pack that is not retired, in name order. */
    List<PackRecord> packs();

    /**
     * Usage of every live pack; a chunk released at or after {@code graceCutoff} still counts as live (a write may
     * be about to reference it again).
     */
    List<PackUsage> packUsage(Instant graceCutoff);

    /**
     * The live chunks of {@code pack} (referenced, or released at or after {@code graceCutoff}) that are located in
     * it, in offset order: what a rewrite of the pack must keep.
     */
    List<ChunkLocation> liveChunks(String pack, Instant graceCutoff);

    /**
     * Moves the live chunks of {@code oldPack} to the already registered {@code newPack} and retires
     * {@code oldPack}, in one transaction. Fails with {@code CONFLICT_RETRY}, changing nothing, if {@code oldPack}
     * holds a chunk that is referenced (or released at or after {@code graceCutoff}) but is not in {@code moved}.
     * Unreferenced chunks of the old pack released before the cutoff are removed from the index.
     *
     * @param moved new locations (in {@code newPack}) of the chunks copied out of {@code oldPack}; may be empty
     */
    void retirePack(String oldPack, List<ChunkLocation> moved, Instant graceCutoff);

    /** Packs retired before {@code cutoff}: no reader can still hold a location in them. */
    List<String> retiredPacks(Instant cutoff);

    /** Forgets a retired pack after its blob was deleted. */
    void forgetPack(String name);

    // ---- maintenance leases

    /**
     * Takes or renews the lease {@code name} for {@code holder} until {@code until}, in one transaction, if it is
     * free, expired at {@code now}, or already {@code holder}'s; returns the lease as it stands afterwards (another
     * holder's when it is taken).
     */
    Lease acquireLease(String name, String holder, Instant now, Instant until);

    /** Gives up {@code holder}'s lease {@code name}; nothing happens when another holder has it. */
    void releaseLease(String name, String holder);

    // ---- whole-store views for fsck and reindex

    /** Counts for metrics and dedup reports. */
    StoreStats stats();

    /**
     * Per-bucket, per-tenant and whole-store usage (logical, referenced and stored bytes; see {@link StorageStats}),
     * from a few aggregate queries: no per-object round trips.
     */
    StorageStats storageStats();

    /**
     * Version ids of every committed object version and delete marker, current or not: the manifest blobs that must
     * exist on the backend.
     */
    List<String> versionIds();

    /** True if the store holds no bucket, object, pack or chunk (reindex only writes into an empty store). */
    boolean isEmpty();

    @Override
    void close();

    // ---- block map

    /**
     * The map of a backend decorator that keeps blobs in numbered blocks (the PoR store), in this store's database
     * so that its changes are transactions of their own beside the rest.
     */
    BlockMapStore blockMap();
}

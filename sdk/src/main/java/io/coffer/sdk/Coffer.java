package io.coffer.sdk;

import io.coffer.sdk.checksum.MultipartChecksum;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The engine as an embedding program sees it: S3's object model over encrypted, deduplicated storage.
 *
 * <p>Every method is thread-safe and blocking; failures are {@link CofferException}s carrying an {@link ErrorCode}.
 * Memory per call is bounded by a few chunks whatever the object size. Build one with {@link #builder()}.
 */
public interface Coffer extends AutoCloseable {

    static CofferBuilder builder() {
        return new CofferBuilder();
    }

    // ---- buckets

    /** Creates a bucket owned by {@code owner}; {@code region} may be null (the default region). */
    Bucket createBucket(String bucket, String owner, String region);

    /** Creates a bucket owned by {@code owner} in the default region. */
    default Bucket createBucket(String bucket, String owner) {
        return createBucket(bucket, owner, null);
    }

    /** The bucket, or {@code NO_SUCH_BUCKET}. */
    Bucket headBucket(String bucket);

    /** Buckets owned by {@code owner} (every bucket when null), in name order. */
    List<Bucket> listBuckets(String owner);

    /** Every bucket, of every owner, in name order. */
    default List<Bucket> listBuckets() {
        return listBuckets(null);
    }

    /** Deletes a bucket that holds no object ({@code BUCKET_NOT_EMPTY} otherwise), aborting its uploads in progress. */
    void deleteBucket(String bucket);

    /**
     * A bucket's configuration document {@code name} (the gateway keeps {@code tagging} and {@code cors} here, in
     * encodings of its own), empty when none is set. The bucket is the record the caller read; NO_SUCH_BUCKET when
     * it is gone.
     */
    Optional<byte[]> bucketConfig(Bucket bucket, String name);

    /**
     * Sets ({@code document} non-null) or removes a bucket's configuration document. It is kept in the metadata store
     * and in the bucket's sealed record on the backend, so reindex restores it; deleting the bucket deletes it.
     */
    void putBucketConfig(Bucket bucket, String name, byte[] document);

    // ---- objects

    /** Stores the body under the key, replacing any object there, once the whole body was read and checked. */
    ObjectInfo putObject(PutObjectRequest request, InputStream body);

    ObjectInfo headObject(String bucket, String key);

    /**
     * Opens the object, or the given range of it (null for all of it), having read and verified its first run of
     * chunks: damage there fails this call ({@code INTEGRITY_ERROR}), later damage the stream's read.
     */
    ObjectContent getObject(String bucket, String key, ByteRange range);

    /**
     * As {@link #getObject(String, String, ByteRange)}, with {@code check} run on the object's info before any of its
     * data is read (a read's preconditions): what it throws is thrown, and nothing is opened. The engine reads the
     * object's record once for both; this default reads it twice.
     */
    default ObjectContent getObject(String bucket, String key, ByteRange range, Consumer<ObjectInfo> check) {
        check.accept(headObject(bucket, key));
        return getObject(bucket, key, range);
    }

    /** Opens the whole object (see {@link #getObject(String, String, ByteRange)}). */
    default ObjectContent getObject(String bucket, String key) {
        return getObject(bucket, key, null);
    }

    /** Opens part {@code partNumber} (1-based) of an object as stored by a multipart upload. */
    ObjectContent getObjectPart(String bucket, String key, int partNumber);

    /** Deletes the key; deleting a missing key succeeds (as in S3), a missing bucket does not. */
    default void deleteObject(String bucket, String key) {
        deleteObject(bucket, key, null);
    }

    /**
     * Deletes the key if its current ETag matches {@code ifMatch} (S3's If-Match on DeleteObject; null: no
     * condition), checked atomically with the delete: {@code PRECONDITION_FAILED} when it does not match,
     * {@code NO_SUCH_KEY} when there is no object to match.
     */
    void deleteObject(String bucket, String key, String ifMatch);

    /** Deletes each key, reporting per key. */
    List<DeleteResult> deleteObjects(String bucket, List<String> keys);

    /**
     * Copies by manifest: the new object shares every chunk with the source, no data is read or written.
     *
     * @param attributes the new object's attributes, or null to copy the source's
     */
    default ObjectInfo copyObject(CopySource source, String bucket, String key, ObjectAttributes attributes,
                                  Precondition precondition) {
        return copyObject(source, bucket, key, attributes, null, precondition);
    }

    /**
     * Copies by manifest, as {@link #copyObject(CopySource, String, String, ObjectAttributes, Precondition)}, with
     * the tag set named apart from the other attributes (S3's tagging directive is apart from its metadata one).
     *
     * @param attributes the new object's attributes (their tags ignored), or null to copy the source's
     * @param tags       the new object's tag set (checked as {@link TagSets#objectTags} does), or null to copy the
     *                   source's
     */
    ObjectInfo copyObject(CopySource source, String bucket, String key, ObjectAttributes attributes,
                          Map<String, String> tags, Precondition precondition);

    /**
     * Replaces the current version's tag set (empty: removes it), checked as {@link TagSets#objectTags} does. The
     * version keeps its id, bytes, ETag and Last-Modified; the tags go into its sealed attribute record, so they
     * survive a reindex. The change commits only while the key still holds the version read (PRECONDITION_FAILED if
     * it changed in between); NO_SUCH_KEY when there is no object.
     */
    void putObjectTags(String bucket, String key, Map<String, String> tags);

    /** Copies with the source's attributes, unconditionally. */
    default ObjectInfo copyObject(CopySource source, String bucket, String key) {
        return copyObject(source, bucket, key, null, Precondition.NONE);
    }

    /** One page of keys (see {@link io.coffer.sdk.meta.MetadataStore#listObjects}); {@code maxKeys} is capped at 1000. */
    ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys);

    /** The first page of keys; {@code delimiter} null groups nothing. */
    default ObjectPage listObjects(String bucket, String prefix, String delimiter, int maxKeys) {
        return listObjects(bucket, prefix, delimiter, null, maxKeys);
    }

    // ---- multipart uploads

    /** Starts an upload with no attributes and no checksum algorithm and returns its id. */
    default String createMultipartUpload(String bucket, String key) {
        return createMultipartUpload(bucket, key, null, null);
    }

    /** Starts an upload without a checksum algorithm and returns its id. */
    default String createMultipartUpload(String bucket, String key, ObjectAttributes attributes) {
        return createMultipartUpload(bucket, key, attributes, null);
    }

    /**
     * Starts an upload and returns its id. With a {@code checksum} (null: none), each part's checksum in its algorithm
     * is computed as the part is stored, and the object gets the checksum the type makes of them.
     */
    String createMultipartUpload(String bucket, String key, ObjectAttributes attributes,
                                 MultipartChecksum checksum);

    /**
     * Uploads part {@code partNumber} (1..10000), replacing an earlier upload of that number. The part's checksum in
     * the upload's algorithm, if it has one, comes back in {@link PartInfo#checksums()}.
     */
    PartInfo uploadPart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                        byte[] contentMd5, InputStream body);

    /** Uploads a part without a Content-MD5 to check. */
    default PartInfo uploadPart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                                InputStream body) {
        return uploadPart(bucket, key, uploadId, partNumber, contentLength, null, body);
    }

    /** Makes a part from a range of an existing object (null: all of it), sharing its chunks where it can. */
    PartInfo uploadPartCopy(CopySource source, ByteRange range, String bucket, String key, String uploadId,
                            int partNumber);

    /** Makes a part from all of an existing object. */
    default PartInfo uploadPartCopy(CopySource source, String bucket, String key, String uploadId, int partNumber) {
        return uploadPartCopy(source, null, bucket, key, uploadId, partNumber);
    }

    /**
     * Joins the listed parts into one object whose ETag is the MD5 of the parts' MD5s followed by {@code -N}.
     * Parts must be in ascending order ({@code INVALID_PART_ORDER}), exist with the given ETags ({@code INVALID_PART})
     * and all but the last be at least the minimum part size ({@code ENTITY_TOO_SMALL}). Repeated after it succeeded,
     * with the same parts, it answers the same object while that is still the key's current version
     * ({@code NO_SUCH_UPLOAD} otherwise).
     */
    default ObjectInfo completeMultipartUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                               Precondition precondition) {
        return completeMultipartUpload(bucket, key, uploadId, parts, precondition, Map.of());
    }

    /** Completes unconditionally (see above). */
    default ObjectInfo completeMultipartUpload(String bucket, String key, String uploadId, List<CompletedPart> parts) {
        return completeMultipartUpload(bucket, key, uploadId, parts, Precondition.NONE);
    }

    /**
     * As above; for an upload with a checksum algorithm, also checks each part's checksum the request names against
     * the stored part's ({@code INVALID_PART}) and {@code objectChecksums} (algorithm name to base64, the client's
     * checksum of the whole object) against the object's checksum made from the parts' ({@code BAD_DIGEST}).
     */
    ObjectInfo completeMultipartUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                       Precondition precondition, Map<String, String> objectChecksums);

    void abortMultipartUpload(String bucket, String key, String uploadId);

    PartListing listParts(String bucket, String key, String uploadId, int partNumberMarker, int maxParts);

    /**
     * Aborts uploads (of every bucket) initiated before {@code initiatedBefore}, at most {@code max} per call, as
     * {@link #abortMultipartUpload} does: their parts' chunks become garbage for the next collection. An upload that a
     * concurrent Complete committed is left to it. Returns how many this call aborted (fewer than {@code max}: none
     * left).
     */
    int expireMultipartUploads(Instant initiatedBefore, int max);

    UploadPage listMultipartUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                    String uploadIdMarker, int maxUploads);

    /** The first page of uploads in progress; {@code delimiter} null groups nothing. */
    default UploadPage listMultipartUploads(String bucket, String prefix, String delimiter, int maxUploads) {
        return listMultipartUploads(bucket, prefix, delimiter, null, null, maxUploads);
    }

    // ---- versioning (S3's rules; each version is a sealed manifest, nothing is copied)

    /** The bucket's versioning state; NO_SUCH_BUCKET when it is gone. */
    BucketVersioning bucketVersioning(Bucket bucket);

    /**
     * Enables or suspends versioning ({@code INVALID_ARGUMENT} for {@code UNVERSIONED}: a bucket cannot go back).
     * Kept like a configuration document, so reindex restores it.
     */
    void putBucketVersioning(Bucket bucket, BucketVersioning state);

    /**
     * A version of the key by the client's version id ({@code null} names the null version; a null id the current
     * version): {@code INVALID_ARGUMENT} for an id Coffer never gives, {@code NO_SUCH_VERSION} when the key has no
     * such version, {@code METHOD_NOT_ALLOWED} when it is a delete marker.
     */
    ObjectInfo headObject(String bucket, String key, String versionId);

    /**
     * As {@link #getObject(String, String, ByteRange, Consumer)} for a version (see
     * {@link #headObject(String, String, String)}).
     */
    ObjectContent getObject(String bucket, String key, String versionId, ByteRange range, Consumer<ObjectInfo> check);

    /** As {@link #getObjectPart(String, String, int)} for a version. */
    ObjectContent getObjectPart(String bucket, String key, String versionId, int partNumber);

    // ---- objects under a customer key (SSE-C: PutObjectRequest#customerKey)

    /**
     * {@link #headObject(String, String, String)} checking the key a request gives ({@code customerKey}, null when
     * none): INVALID_REQUEST for an object stored under a customer key when none is given, or a key given for an
     * object stored under none; ACCESS_DENIED for another key than the object's. A store that keeps no such objects
     * refuses every key.
     */
    default ObjectInfo headObject(String bucket, String key, String versionId, CustomerKey customerKey) {
        if (customerKey != null) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "This store keeps no objects under customer keys.");
        }
        return headObject(bucket, key, versionId);
    }

    /**
     * {@link #getObject(String, String, String, ByteRange, Consumer)} of an object stored under a customer key, with
     * that key (checked as {@link #headObject(String, String, String, CustomerKey)} does, before {@code check}). The
     * methods without a key refuse such an object (INVALID_REQUEST).
     */
    default ObjectContent getObject(String bucket, String key, String versionId, ByteRange range,
                                    Consumer<ObjectInfo> check, CustomerKey customerKey) {
        if (customerKey != null) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "This store keeps no objects under customer keys.");
        }
        return getObject(bucket, key, versionId, range, check);
    }

    /**
     * A multipart upload whose parts, and so its object, are stored under {@code customerKey} (null: none); each
     * part must then be uploaded with the same key ({@link #uploadPart(Bucket, String, String, int, long, byte[],
     * InputStream, CustomerKey)}: INVALID_REQUEST for another or none), and UploadPartCopy into it is refused.
     */
    default String createMultipartUpload(Bucket bucket, String key, ObjectAttributes attributes,
                                         MultipartChecksum checksum, CustomerKey customerKey) {
        if (customerKey != null) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "This store keeps no objects under customer keys.");
        }
        return createMultipartUpload(bucket, key, attributes, checksum);
    }

    /**
     * {@link #createMultipartUpload(Bucket, String, ObjectAttributes, MultipartChecksum, CustomerKey)} whose object's
     * version gets {@code lock} (S3's Object Lock headers on CreateMultipartUpload; NONE: the bucket's default
     * retention) when the upload completes. The lock is checked at once, as PutObject's.
     */
    default String createMultipartUpload(Bucket bucket, String key, ObjectAttributes attributes,
                                         MultipartChecksum checksum, CustomerKey customerKey, ObjectLock lock) {
        if (lock != null && !lock.equals(ObjectLock.NONE)) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "This store keeps no Object Lock.");
        }
        return createMultipartUpload(bucket, key, attributes, checksum, customerKey);
    }

    /** A part of an upload, with the upload's customer key (null for an upload under none). */
    default PartInfo uploadPart(Bucket bucket, String key, String uploadId, int partNumber, long contentLength,
                                byte[] contentMd5, InputStream body, CustomerKey customerKey) {
        if (customerKey != null) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "This store keeps no objects under customer keys.");
        }
        return uploadPart(bucket, key, uploadId, partNumber, contentLength, contentMd5, body);
    }

    /** {@link #getObjectPart(String, String, String, int)} with the object's customer key (see above). */
    default ObjectContent getObjectPart(String bucket, String key, String versionId, int partNumber,
                                        CustomerKey customerKey) {
        if (customerKey != null) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "This store keeps no objects under customer keys.");
        }
        return getObjectPart(bucket, key, versionId, partNumber);
    }

    // ---- objects whose key the object itself names (SSE-KMS: KmsKey), resolved on the record that is read

    /**
     * {@link #headObject(String, String, String, CustomerKey)} with the key {@code keys} picks from the object's
     * attributes. This default looks first and checks after (a store that overrides it does both on one record).
     */
    default ObjectInfo headObjectKeyed(String bucket, String key, String versionId, ObjectKeyResolver keys) {
        ObjectInfo info = headObject(bucket, key, versionId);
        return headObject(bucket, key, info.versionId() == null ? versionId : info.versionId(),
                keys.keyFor(info.attributes()));
    }

    /** {@link #getObject(String, String, String, ByteRange, Consumer, CustomerKey)} with the key {@code keys} picks. */
    default ObjectContent getObjectKeyed(String bucket, String key, String versionId, ByteRange range,
                                         Consumer<ObjectInfo> check, ObjectKeyResolver keys) {
        ObjectInfo info = headObject(bucket, key, versionId);
        return getObject(bucket, key, info.versionId() == null ? versionId : info.versionId(), range, check,
                keys.keyFor(info.attributes()));
    }

    /** {@link #getObjectPart(String, String, String, int, CustomerKey)} with the key {@code keys} picks. */
    default ObjectContent getObjectPartKeyed(String bucket, String key, String versionId, int partNumber,
                                             ObjectKeyResolver keys) {
        ObjectInfo info = headObject(bucket, key, versionId);
        return getObjectPart(bucket, key, info.versionId() == null ? versionId : info.versionId(), partNumber,
                keys.keyFor(info.attributes()));
    }

    /**
     * {@link #uploadPart(Bucket, String, String, int, long, byte[], InputStream, CustomerKey)} with the key
     * {@code keys} picks from the upload's attributes (those it was created with). A store that keeps no such
     * uploads gives it empty attributes.
     */
    default PartInfo uploadPartKeyed(Bucket bucket, String key, String uploadId, int partNumber, long contentLength,
                                     byte[] contentMd5, InputStream body, ObjectKeyResolver keys) {
        return uploadPart(bucket, key, uploadId, partNumber, contentLength, contentMd5, body,
                keys.keyFor(ObjectAttributes.EMPTY));
    }

    /**
     * S3's DeleteObject: with {@code versionId}, removes that version for good (the next newest becomes current;
     * a missing version is no error); without, as {@link #deleteObject(String, String, String)} in an unversioned
     * bucket, and in a versioned one adds a delete marker as the current version.
     */
    default DeletedVersion deleteObjectVersion(Bucket bucket, String key, String versionId, String ifMatch) {
        return deleteObjectVersion(bucket, key, versionId, ifMatch, false);
    }

    /**
     * {@link #deleteObjectVersion(Bucket, String, String, String)}; a version whose Object Lock holds (legal hold on,
     * or retention date in the future) is not removed: AccessDenied, unless the retention is GOVERNANCE, there is no
     * legal hold and {@code bypassGovernance} is set (the caller may bypass governance retention).
     */
    DeletedVersion deleteObjectVersion(Bucket bucket, String key, String versionId, String ifMatch,
                                       boolean bypassGovernance);

    // ---- Object Lock (S3's rules: ObjectLock, ObjectLockMode)

    /**
     * Creates a bucket; with {@code objectLock}, with Object Lock enabled (no default retention), which also enables
     * its versioning for good.
     */
    Bucket createBucket(String bucket, String owner, String region, boolean objectLock);

    /** The bucket's Object Lock configuration; empty if it does not have Object Lock. */
    Optional<ObjectLockConfiguration> objectLockConfiguration(Bucket bucket);

    /**
     * Sets the bucket's Object Lock configuration (its default retention); enables Object Lock on a bucket whose
     * versioning is enabled (InvalidBucketState otherwise). Object Lock cannot be disabled.
     */
    void putObjectLockConfiguration(Bucket bucket, ObjectLockConfiguration configuration);

    /**
     * {@link #putObject(PutObjectRequest, InputStream)} of a version that gets {@code lock} (NONE: the bucket's
     * default retention, if any); InvalidRequest in a bucket without Object Lock, InvalidArgument for a retention date
     * that is not in the future.
     */
    ObjectInfo putObject(PutObjectRequest request, InputStream body, ObjectLock lock);

    /** {@link #copyObject(CopySource, Bucket, String, ObjectAttributes, Map, Precondition)} with a lock, as above. */
    ObjectInfo copyObject(CopySource source, Bucket bucket, String key, ObjectAttributes attributes,
                          Map<String, String> tags, Precondition precondition, ObjectLock lock);

    /**
     * The Object Lock of a version (versionId null: the current one); {@link ObjectLock#NONE} if it has none.
     * InvalidRequest if the bucket does not have Object Lock.
     */
    ObjectLock objectLock(Bucket bucket, String key, String versionId);

    /**
     * PutObjectRetention: sets a version's retention ({@code mode} and {@code retainUntil} both null: removes it).
     * A retention that holds cannot be shortened, removed or turned from COMPLIANCE to GOVERNANCE (AccessDenied);
     * {@code bypassGovernance} lifts that for a GOVERNANCE retention. The version keeps its id. Returns the new lock.
     */
    ObjectLock putObjectRetention(Bucket bucket, String key, String versionId, ObjectLockMode mode,
                                  Instant retainUntil, boolean bypassGovernance);

    /** PutObjectLegalHold: turns a version's legal hold on or off; the version keeps its id. Returns the new lock. */
    ObjectLock putObjectLegalHold(Bucket bucket, String key, String versionId, boolean on);

    /**
     * ListObjectVersions: versions and delete markers by key, newest first, after version {@code versionIdMarker} of
     * {@code keyMarker} (both null: from the start), at most {@code maxKeys} (capped at 1,000) entries and common
     * prefixes; costs index seeks proportional to the page.
     */
    VersionPage listObjectVersions(String bucket, String prefix, String delimiter, String keyMarker,
                                   String versionIdMarker, int maxKeys);

    // ---- with the bucket's record the caller already read

    /*
     * Each of these is the operation of the same name for the bucket whose record the caller read for this request
     * (to check access): the engine then does not read it again. It still checks, inside the commit, that the bucket
     * exists. These defaults call the name-based operations.
     */

    default void deleteObject(Bucket bucket, String key) {
        deleteObject(bucket, key, null);
    }

    default void deleteObject(Bucket bucket, String key, String ifMatch) {
        deleteObject(bucket.name(), key, ifMatch);
    }

    default List<DeleteResult> deleteObjects(Bucket bucket, List<String> keys) {
        return deleteObjects(bucket.name(), keys);
    }

    default ObjectInfo copyObject(CopySource source, Bucket bucket, String key, ObjectAttributes attributes,
                                  Precondition precondition) {
        return copyObject(source, bucket, key, attributes, null, precondition);
    }

    default ObjectInfo copyObject(CopySource source, Bucket bucket, String key, ObjectAttributes attributes,
                                  Map<String, String> tags, Precondition precondition) {
        return copyObject(source, bucket.name(), key, attributes, tags, precondition);
    }

    default void putObjectTags(Bucket bucket, String key, Map<String, String> tags) {
        putObjectTags(bucket.name(), key, tags);
    }

    /**
     * Replaces the tag set of the version with this version id ({@code null}: the current version; {@code "null"}:
     * the null version), as {@link #putObjectTags(String, String, Map)} does for the current one: the version keeps
     * its id. NO_SUCH_VERSION, INVALID_ARGUMENT and METHOD_NOT_ALLOWED (a delete marker) as a read of that version
     * answers. Returns the version as it is now.
     */
    ObjectInfo putObjectTags(Bucket bucket, String key, String versionId, Map<String, String> tags);

    /**
     * Replaces the current version's tags and ACL with {@code revision} of its attributes (the gateway keeps an
     * object's ACL among its stored headers, {@link ObjectAttributes#ACL_HEADER}), as {@link #putObjectTags} replaces
     * its tags: the version keeps its id, bytes, ETag and Last-Modified, a reindex restores the change, and it
     * commits only while the key still holds the version read (PRECONDITION_FAILED otherwise); NO_SUCH_KEY when there
     * is none. A revision that changes anything else is refused (IllegalArgumentException). Tags the revision sets
     * are not checked: use {@link #putObjectTags} for tags.
     */
    void reviseObjectAttributes(Bucket bucket, String key, UnaryOperator<ObjectAttributes> revision);

    /**
     * {@link #reviseObjectAttributes(Bucket, String, UnaryOperator)} on the version with this version id
     * ({@code null}: the current version), which keeps its id; errors as
     * {@link #putObjectTags(Bucket, String, String, Map)}. Returns the version as it is now.
     */
    ObjectInfo reviseObjectAttributes(Bucket bucket, String key, String versionId,
                                      UnaryOperator<ObjectAttributes> revision);

    default String createMultipartUpload(Bucket bucket, String key, ObjectAttributes attributes,
                                         MultipartChecksum checksum) {
        return createMultipartUpload(bucket.name(), key, attributes, checksum);
    }

    default PartInfo uploadPart(Bucket bucket, String key, String uploadId, int partNumber, long contentLength,
                                byte[] contentMd5, InputStream body) {
        return uploadPart(bucket.name(), key, uploadId, partNumber, contentLength, contentMd5, body);
    }

    default PartInfo uploadPartCopy(CopySource source, ByteRange range, Bucket bucket, String key, String uploadId,
                                    int partNumber) {
        return uploadPartCopy(source, range, bucket.name(), key, uploadId, partNumber);
    }

    default ObjectInfo completeMultipartUpload(Bucket bucket, String key, String uploadId, List<CompletedPart> parts,
                                               Precondition precondition, Map<String, String> objectChecksums) {
        return completeMultipartUpload(bucket.name(), key, uploadId, parts, precondition, objectChecksums);
    }

    default void abortMultipartUpload(Bucket bucket, String key, String uploadId) {
        abortMultipartUpload(bucket.name(), key, uploadId);
    }

    default PartListing listParts(Bucket bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        return listParts(bucket.name(), key, uploadId, partNumberMarker, maxParts);
    }

    default UploadPage listMultipartUploads(Bucket bucket, String prefix, String delimiter, String keyMarker,
                                            String uploadIdMarker, int maxUploads) {
        return listMultipartUploads(bucket.name(), prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
    }

    // ---- administration

    /** Checks every manifest against the chunk index and the backend; with {@code readData} also decrypts and verifies every chunk. */
    FsckReport fsck(boolean readData);

    /** {@link #fsck(boolean)}, telling {@code progress} how far it has come. */
    default FsckReport fsck(boolean readData, ProgressListener progress) {
        return fsck(readData);
    }

    /** Releases dead space: rewrites packs whose dead bytes pass the threshold and deletes retired and orphan blobs. */
    GcReport collectGarbage();

    /** {@link #collectGarbage()}, telling {@code progress} how far it has come. */
    default GcReport collectGarbage(ProgressListener progress) {
        return collectGarbage();
    }

    /**
     * What {@link #collectGarbage()} would do now, done without writing or deleting anything: the packs it would
     * retire and rewrite, the bytes it would copy, and the blobs and bytes it would delete.
     */
    GcReport planGarbageCollection();

    /**
     * Takes the store's lease for the maintenance job {@code job} (a name such as {@code lifecycle}; {@code gc} is
     * garbage collection's own), so that one process of the store runs it at a time: {@link LeaseHeldException} when
     * another process holds it. The caller renews it while the job runs and closes it at the end.
     */
    MaintenanceLease takeMaintenanceLease(String job);

    /** Rebuilds an empty metadata store from the backend alone (bucket records, manifests, pack indexes). */
    ReindexReport reindex();

    /** {@link #reindex()}, telling {@code progress} how far it has come. */
    default ReindexReport reindex(ProgressListener progress) {
        return reindex();
    }

    /** Counters for metrics and dedup reports. */
    StoreStats stats();

    /**
     * What each bucket, each tenant (bucket owner) and the whole store hold and what storing it costs: logical,
     * referenced (after dedup) and stored (after compression) bytes and object counts ({@link StorageStats}).
     */
    StorageStats storageStats();

    @Override
    void close();
}

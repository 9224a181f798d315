package io.coffer.sdk.engine;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.DeleteResult;
import io.coffer.sdk.DeletedVersion;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.MaintenanceLease;
import io.coffer.sdk.Names;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectKeyResolver;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockConfiguration;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PartListing;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.TagSets;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ProgressListener;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage engine: {@link Coffer} over a {@link io.coffer.sdk.blob.BlobStore} and a {@link MetadataStore}. It
 * wires the parts and answers the object operations itself: {@link Buckets}, {@link ObjectPuts}, {@link ObjectReads},
 * {@link ObjectCommits} (the write order that makes a crash lose no committed object), {@link Preconditions},
 * {@link MultipartUploads}, and fsck, garbage collection and reindex.
 */
public final class Engine implements Coffer {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
    /** The most entries one listing page holds (S3's limit). */
    static final int MAX_LIST = 1000;

    private final EngineContext ctx;
    private final EngineConfig config;
    private final MetadataStore meta;
    private final AutoCloseable directoryLock;
    private final Buckets buckets;
    private final ObjectReads reads;
    private final ObjectCommits commits;
    private final MultipartUploads multipart;
    private final LayerPuts layerPuts;
    private final ObjectVersions versions;
    private final ObjectLocks locks;
    private final ObjectPuts puts;
    private final VersionAttributes attributes;

    /** What this engine was built with (for tests in this package). */
    EngineConfig config() {
        return config;
    }

    /** Its manifest groups (for tests in this package). */
    ManifestGroups manifestGroups() {
        return ctx.manifestGroups;
    }

    public Engine(EngineConfig config) {
        this(config, null);
    }

    /** An engine that releases {@code directoryLock} (null: none) when it is closed. */
    public Engine(EngineConfig config, AutoCloseable directoryLock) {
        this.directoryLock = directoryLock;
        this.config = config;
        this.meta = config.metadata();
        this.ctx = new EngineContext(config);
        this.buckets = new Buckets(ctx);
        this.reads = new ObjectReads(ctx, buckets);
        this.locks = new ObjectLocks(ctx, buckets);
        this.attributes = new VersionAttributes(ctx, reads);
        this.commits = new ObjectCommits(ctx, locks);
        this.layerPuts = new LayerPuts(ctx);
        this.versions = new ObjectVersions(ctx, buckets, commits, locks);
        this.puts = new ObjectPuts(ctx, buckets, commits, layerPuts);
        this.multipart = new MultipartUploads(ctx, buckets, reads, commits,
                new LayerCompletions(ctx, layerPuts, reads, commits));
        try {
            config.blobs().prepareFolders(BackendLayout.folders());
        } catch (IOException | RuntimeException e) {
            // only a head start: each write still creates the folder it needs
            LOG.warn("could not create the backend folders ahead of use: {}", e.toString());
        }
    }

    // ---- buckets

    @Override
    public Bucket createBucket(String bucket, String owner, String region) {
        return buckets.create(bucket, owner, region);
    }

    @Override
    public Bucket headBucket(String bucket) {
        return buckets.head(bucket);
    }

    @Override
    public List<Bucket> listBuckets(String owner) {
        return buckets.list(owner);
    }

    @Override
    public void deleteBucket(String bucket) {
        buckets.delete(bucket);
    }

    @Override
    public Optional<byte[]> bucketConfig(Bucket bucket, String name) {
        return buckets.config(bucket.name(), bucket, name);
    }

    @Override
    public void putBucketConfig(Bucket bucket, String name, byte[] document) {
        buckets.putConfig(bucket.name(), bucket, name, document);
    }

    // ---- objects

    @Override
    public ObjectInfo putObject(PutObjectRequest request, InputStream body) {
        return putObject(request, body, ObjectLock.NONE);
    }

    @Override
    public ObjectInfo putObject(PutObjectRequest request, InputStream body, ObjectLock lock) {
        return puts.put(request, body, lock);
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) {
        return headObject(bucket, key, null);
    }

    @Override
    public ObjectInfo headObject(String bucket, String key, String versionId) {
        return ObjectReads.info(reads.record(bucket, key, versionId));
    }

    @Override
    public ObjectContent getObject(String bucket, String key, ByteRange range) {
        return getObject(bucket, key, range, info -> { });
    }

    @Override
    public ObjectContent getObject(String bucket, String key, ByteRange range, Consumer<ObjectInfo> check) {
        return getObject(bucket, key, null, range, check);
    }

    @Override
    public ObjectInfo headObject(String bucket, String key, String versionId, CustomerKey customerKey) {
        return headObjectKeyed(bucket, key, versionId, ObjectKeyResolver.of(customerKey));
    }

    @Override
    public ObjectContent getObject(String bucket, String key, String versionId, ByteRange range,
                                   Consumer<ObjectInfo> check) {
        return getObject(bucket, key, versionId, range, check, null);
    }

    @Override
    public ObjectContent getObject(String bucket, String key, String versionId, ByteRange range,
                                   Consumer<ObjectInfo> check, CustomerKey customerKey) {
        return getObjectKeyed(bucket, key, versionId, range, check, ObjectKeyResolver.of(customerKey));
    }

    @Override
    public ObjectInfo headObjectKeyed(String bucket, String key, String versionId, ObjectKeyResolver keys) {
        ObjectInfo info = headObject(bucket, key, versionId);
        CustomerKeyWrap.check(config.masterKey(), info.attributes(), keys.keyFor(info.attributes()));
        return info;
    }

    @Override
    public ObjectContent getObjectKeyed(String bucket, String key, String versionId, ByteRange range,
                                        Consumer<ObjectInfo> check, ObjectKeyResolver keys) {
        return reads.object(bucket, key, versionId, range, check, keys);
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, int partNumber) {
        return getObjectPart(bucket, key, null, partNumber);
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, String versionId, int partNumber) {
        return getObjectPart(bucket, key, versionId, partNumber, null);
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, String versionId, int partNumber,
                                       CustomerKey customerKey) {
        return getObjectPartKeyed(bucket, key, versionId, partNumber, ObjectKeyResolver.of(customerKey));
    }

    @Override
    public ObjectContent getObjectPartKeyed(String bucket, String key, String versionId, int partNumber,
                                            ObjectKeyResolver keys) {
        return reads.part(bucket, key, versionId, partNumber, keys);
    }

    @Override
    public void deleteObject(String bucket, String key, String ifMatch) {
        deleteObject(bucket, null, key, ifMatch);
    }

    @Override
    public void deleteObject(Bucket bucket, String key, String ifMatch) {
        deleteObject(bucket.name(), bucket, key, ifMatch);
    }

    /** {@code known}: the bucket's record when the caller already read it, else null (then it is read here). */
    private void deleteObject(String bucket, Bucket known, String key, String ifMatch) {
        versions.delete(bucket, known, key, null, ifMatch, false);
    }

    // ---- versioning

    @Override
    public BucketVersioning bucketVersioning(Bucket bucket) {
        return versions.state(bucket.name(), bucket);
    }

    @Override
    public void putBucketVersioning(Bucket bucket, BucketVersioning state) {
        versions.setState(bucket.name(), bucket, state);
    }

    @Override
    public DeletedVersion deleteObjectVersion(Bucket bucket, String key, String versionId, String ifMatch,
                                              boolean bypassGovernance) {
        return versions.delete(bucket.name(), bucket, key, versionId, ifMatch, bypassGovernance);
    }

    // ---- Object Lock

    @Override
    public Bucket createBucket(String bucket, String owner, String region, boolean objectLock) {
        return objectLock ? locks.createBucket(bucket, owner, region) : createBucket(bucket, owner, region);
    }

    @Override
    public Optional<ObjectLockConfiguration> objectLockConfiguration(Bucket bucket) {
        return locks.configuration(bucket.name(), bucket);
    }

    @Override
    public void putObjectLockConfiguration(Bucket bucket, ObjectLockConfiguration configuration) {
        locks.putConfiguration(bucket.name(), bucket, configuration);
    }

    @Override
    public ObjectLock objectLock(Bucket bucket, String key, String versionId) {
        requireObjectLock(bucket);
        return locks.lockOf(reads.record(bucket.name(), key, versionId));
    }

    @Override
    public ObjectLock putObjectRetention(Bucket bucket, String key, String versionId, ObjectLockMode mode,
                                         Instant retainUntil, boolean bypassGovernance) {
        requireObjectLock(bucket);
        return locks.change(reads.record(bucket.name(), key, versionId),
                new ObjectLocks.ObjectRetention(mode, retainUntil), null, bypassGovernance);
    }

    @Override
    public ObjectLock putObjectLegalHold(Bucket bucket, String key, String versionId, boolean on) {
        requireObjectLock(bucket);
        return locks.change(reads.record(bucket.name(), key, versionId), null, on, false);
    }

    private void requireObjectLock(Bucket bucket) {
        if (locks.configuration(bucket.name(), bucket).isEmpty()) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "Bucket is missing Object Lock Configuration");
        }
    }

    @Override
    public VersionPage listObjectVersions(String bucket, String prefix, String delimiter, String keyMarker,
                                          String versionIdMarker, int maxKeys) {
        return versions.list(bucket, prefix, delimiter, keyMarker, versionIdMarker, maxKeys);
    }

    @Override
    public List<DeleteResult> deleteObjects(String bucket, List<String> keys) {
        return deleteObjects(headBucket(bucket), keys);
    }

    @Override
    public List<DeleteResult> deleteObjects(Bucket bucket, List<String> keys) {
        List<DeleteResult> results = new ArrayList<>(keys.size());
        for (String key : keys) {
            try {
                deleteObject(bucket.name(), bucket, key, null);
                results.add(new DeleteResult(key, null));
            } catch (CofferException e) {
                results.add(new DeleteResult(key, e));
            }
        }
        return results;
    }

    @Override
    public ObjectInfo copyObject(CopySource source, String bucket, String key, ObjectAttributes attributes,
                                 Map<String, String> tags, Precondition precondition) {
        return copyObject(source, bucket, null, key, attributes, tags, precondition, ObjectLock.NONE);
    }

    @Override
    public ObjectInfo copyObject(CopySource source, Bucket bucket, String key, ObjectAttributes attributes,
                                 Map<String, String> tags, Precondition precondition) {
        return copyObject(source, bucket.name(), bucket, key, attributes, tags, precondition, ObjectLock.NONE);
    }

    @Override
    public ObjectInfo copyObject(CopySource source, Bucket bucket, String key, ObjectAttributes attributes,
                                 Map<String, String> tags, Precondition precondition, ObjectLock lock) {
        return copyObject(source, bucket.name(), bucket, key, attributes, tags, precondition, lock);
    }

    private ObjectInfo copyObject(CopySource source, String bucket, Bucket known, String key,
                                  ObjectAttributes attributes, Map<String, String> tags, Precondition precondition,
                                  ObjectLock lock) {
        Names.checkKey(key);
        Map<String, String> newTags = tags == null ? null : TagSets.objectTags(tags);
        ObjectRecord src = reads.copySource(source);
        buckets.head(bucket, known);
        Manifest from = reads.openManifest(src);
        // the source's attributes as its row holds them: its tags and ACL may have changed since its manifest
        ObjectAttributes held = ObjectReads.info(src).attributes();
        ObjectAttributes attrs = (attributes == null ? held : attributes.withChecksums(held.checksums()))
                .withTags(newTags == null ? held.tags() : newTags);
        Manifest copy = from.copyAs(bucket, key, BackendLayout.newId(), Instant.now().truncatedTo(ChronoUnit.MILLIS),
                attrs);
        return commits.commit(copy, NewChunks.NONE, precondition == null ? Precondition.NONE : precondition, null,
                null, lock);
    }

    @Override
    public void putObjectTags(String bucket, String key, Map<String, String> tags) {
        Map<String, String> checked = TagSets.objectTags(tags);
        Names.checkKey(key);
        attributes.revise(bucket, key, null, a -> a.withTags(checked));
    }

    @Override
    public void putObjectTags(Bucket bucket, String key, Map<String, String> tags) {
        putObjectTags(bucket, key, null, tags);
    }

    @Override
    public ObjectInfo putObjectTags(Bucket bucket, String key, String versionId, Map<String, String> tags) {
        Map<String, String> checked = TagSets.objectTags(tags);
        return reviseObjectAttributes(bucket, key, versionId, a -> a.withTags(checked));
    }

    @Override
    public void reviseObjectAttributes(Bucket bucket, String key, UnaryOperator<ObjectAttributes> revision) {
        reviseObjectAttributes(bucket, key, null, revision);
    }

    /**
     * Changes the tags and ACL of a version in place: it keeps its id, bytes, ETag and Last-Modified
     * ({@link VersionAttributes}).
     */
    @Override
    public ObjectInfo reviseObjectAttributes(Bucket bucket, String key, String versionId,
                                             UnaryOperator<ObjectAttributes> revision) {
        Names.checkKey(key);
        buckets.head(bucket.name(), bucket);
        return attributes.revise(bucket.name(), key, versionId, revision);
    }

    @Override
    public ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        if (maxKeys < 0) {
            throw CofferException.invalid("max-keys must be non-negative");
        }
        return meta.listObjects(bucket, prefix == null ? "" : prefix, delimiter == null || delimiter.isEmpty()
                ? null : delimiter, after, Math.min(maxKeys, MAX_LIST));
    }

    // ---- multipart (each also with the bucket's record the caller read: then the engine does not read it again)

    @Override
    public String createMultipartUpload(String bucket, String key, ObjectAttributes attributes,
                                        MultipartChecksum checksum) {
        return multipart.create(bucket, null, key, attributes, checksum);
    }

    @Override
    public String createMultipartUpload(Bucket bucket, String key, ObjectAttributes attributes,
                                        MultipartChecksum checksum) {
        return multipart.create(bucket.name(), bucket, key, attributes, checksum);
    }

    @Override
    public PartInfo uploadPart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, InputStream body) {
        return multipart.uploadPart(bucket, null, key, uploadId, partNumber, contentLength, contentMd5, body, null);
    }

    @Override
    public PartInfo uploadPart(Bucket bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, InputStream body) {
        return multipart.uploadPart(bucket.name(), bucket, key, uploadId, partNumber, contentLength, contentMd5,
                body, null);
    }

    @Override
    public String createMultipartUpload(Bucket bucket, String key, ObjectAttributes attributes,
                                        MultipartChecksum checksum, CustomerKey customerKey) {
        return multipart.create(bucket.name(), bucket, key, attributes, checksum, customerKey);
    }

    @Override
    public String createMultipartUpload(Bucket bucket, String key, ObjectAttributes attributes,
                                        MultipartChecksum checksum, CustomerKey customerKey, ObjectLock lock) {
        return multipart.create(bucket.name(), bucket, key, attributes, checksum, customerKey, lock);
    }

    @Override
    public PartInfo uploadPart(Bucket bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, InputStream body, CustomerKey customerKey) {
        return multipart.uploadPart(bucket.name(), bucket, key, uploadId, partNumber, contentLength, contentMd5,
                body, customerKey);
    }

    @Override
    public PartInfo uploadPartKeyed(Bucket bucket, String key, String uploadId, int partNumber, long contentLength,
                                    byte[] contentMd5, InputStream body, ObjectKeyResolver keys) {
        return multipart.uploadPartKeyed(bucket.name(), bucket, key, uploadId, partNumber, contentLength, contentMd5,
                body, keys);
    }

    @Override
    public PartInfo uploadPartCopy(CopySource source, ByteRange range, String bucket, String key, String uploadId,
                                   int partNumber) {
        return multipart.uploadPartCopy(source, range, bucket, null, key, uploadId, partNumber);
    }

    @Override
    public PartInfo uploadPartCopy(CopySource source, ByteRange range, Bucket bucket, String key, String uploadId,
                                   int partNumber) {
        return multipart.uploadPartCopy(source, range, bucket.name(), bucket, key, uploadId, partNumber);
    }

    @Override
    public ObjectInfo completeMultipartUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                              Precondition precondition, Map<String, String> objectChecksums) {
        return multipart.complete(bucket, null, key, uploadId, parts, precondition, objectChecksums);
    }

    @Override
    public ObjectInfo completeMultipartUpload(Bucket bucket, String key, String uploadId, List<CompletedPart> parts,
                                              Precondition precondition, Map<String, String> objectChecksums) {
        return multipart.complete(bucket.name(), bucket, key, uploadId, parts, precondition, objectChecksums);
    }

    @Override
    public void abortMultipartUpload(String bucket, String key, String uploadId) {
        multipart.abort(bucket, null, key, uploadId);
    }

    @Override
    public void abortMultipartUpload(Bucket bucket, String key, String uploadId) {
        multipart.abort(bucket.name(), bucket, key, uploadId);
    }

    @Override
    public int expireMultipartUploads(Instant initiatedBefore, int max) {
        return multipart.expire(initiatedBefore, max);
    }

    @Override
    public PartListing listParts(String bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        return multipart.listParts(bucket, null, key, uploadId, partNumberMarker, maxParts);
    }

    @Override
    public PartListing listParts(Bucket bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        return multipart.listParts(bucket.name(), bucket, key, uploadId, partNumberMarker, maxParts);
    }

    @Override
    public UploadPage listMultipartUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                           String uploadIdMarker, int maxUploads) {
        return multipart.listUploads(bucket, null, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
    }

    @Override
    public UploadPage listMultipartUploads(Bucket bucket, String prefix, String delimiter, String keyMarker,
                                           String uploadIdMarker, int maxUploads) {
        return multipart.listUploads(bucket.name(), bucket, prefix, delimiter, keyMarker, uploadIdMarker,
                maxUploads);
    }

    // ---- administration

    @Override
    public FsckReport fsck(boolean readData) {
        return fsck(readData, ProgressListener.NONE);
    }

    @Override
    public FsckReport fsck(boolean readData, ProgressListener progress) {
        return new Fsck(ctx, progress).run(readData);
    }

    @Override
    public GcReport collectGarbage() {
        return collectGarbage(ProgressListener.NONE);
    }

    @Override
    public GcReport collectGarbage(ProgressListener progress) {
        return new GarbageCollector(ctx).run(progress);
    }

    @Override
    public GcReport planGarbageCollection() {
        return new GcPlanner(ctx).plan();
    }

    @Override
    public MaintenanceLease takeMaintenanceLease(String job) {
        if (job == null || job.isBlank() || job.equals(GcLease.NAME)) {
            throw CofferException.invalid("a maintenance lease needs a job name other than gc: " + job);
        }
        return GcLease.take(meta, job, job, ctx.leaseHolder, Clock.systemUTC());
    }

    @Override
    public ReindexReport reindex() {
        return reindex(ProgressListener.NONE);
    }

    @Override
    public ReindexReport reindex(ProgressListener progress) {
        return new Reindexer(ctx, progress).run();
    }

    @Override
    public StoreStats stats() {
        return meta.stats();
    }

    @Override
    public StorageStats storageStats() {
        return meta.storageStats();
    }

    @Override
    public void close() {
        ctx.close();
        meta.close();
        try {
            config.blobs().close();
        } catch (IOException e) {
            LOG.warn("closing the blob store failed: {}", e.toString());
        }
        config.keySource().close();
        if (directoryLock != null) {
            try {
                directoryLock.close();
            } catch (Exception e) {
                LOG.warn("releasing the data directory lock failed: {}", e.toString());
            }
        }
    }
}

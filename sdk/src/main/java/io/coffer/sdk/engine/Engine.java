package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.DeleteResult;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.Names;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PartListing;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.checksum.ChecksumInputStream;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.BucketRecord;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectPage;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PartRecord;
import io.coffer.sdk.meta.Precondition;
import io.coffer.sdk.meta.StoreStats;
import io.coffer.sdk.meta.UploadPage;
import io.coffer.sdk.meta.UploadRecord;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage engine: {@link Coffer} over a {@link io.coffer.sdk.blob.BlobStore} and a {@link MetadataStore}.
 *
 * <p>Write ordering, which is what makes a crash at any instant lose no committed object (docs/FORMAT.md,
 * "Invariants"): packs are uploaded first, then the sealed manifest blob, then one metadata transaction commits the
 * object and its references; only after that commit is a replaced version's manifest blob deleted. A crash before
 * the commit leaves unreferenced blobs that fsck reports as orphans and garbage collection removes after its grace
 * period; a crash after it leaves nothing to repair.
 */
public final class Engine implements Coffer {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
    private static final int MAX_PARTS = 10_000;
    private static final int MAX_LIST = 1000;

    private final EngineContext ctx;
    private final EngineConfig config;
    private final MetadataStore meta;
    private final AutoCloseable directoryLock;
    private final Buckets buckets;
    private final ObjectReads reads;
    private final ObjectCommits commits;

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
        this.commits = new ObjectCommits(ctx);
        try {
            config.blobs().prepareFolders(BackendLayout.folders());
        } catch (IOException | RuntimeException e) {
            // only a head start: each write still creates the folder it needs
            LOG.warn("could not create the backend folders ahead of use: {}", e.toString());
        }
    }

    // ---- buckets

    @Override
    public BucketRecord createBucket(String bucket, String owner, String region) {
        return buckets.create(bucket, owner, region);
    }

    @Override
    public BucketRecord headBucket(String bucket) {
        return buckets.head(bucket);
    }

    @Override
    public List<BucketRecord> listBuckets(String owner) {
        return buckets.list(owner);
    }

    @Override
    public void deleteBucket(String bucket) {
        buckets.delete(bucket);
    }

    // ---- objects

    @Override
    public ObjectInfo putObject(PutObjectRequest request, InputStream body) {
        Names.checkKey(request.key());
        if (request.bucketRecord() == null || !request.bucketRecord().name().equals(request.bucket())) {
            headBucket(request.bucket()); // else the caller just read it; the commit checks it again anyway
        }
        Preconditions.precheck(meta, request.bucket(), request.key(), request.precondition());
        try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(config,
                request.contentLength(), config.inlineLimit()))) {
            return writeObject(request, body);
        }
    }

    private ObjectInfo writeObject(PutObjectRequest request, InputStream body) {
        ObjectWriter writer = new ObjectWriter(ctx, request.bucket(), request.key(), request.contentLength(),
                config.inlineLimit());
        ObjectWriter.Result written = ObjectCommits.writeBody(writer, body);
        try {
            if (request.contentMd5() != null && !MessageDigest.isEqual(request.contentMd5(), written.md5())) {
                throw CofferException.of(ErrorCode.BAD_DIGEST,
                        "The Content-MD5 you specified did not match what we received.");
            }
            ObjectAttributes attributes = request.attributes();
            if (request.checksums() != null) {
                Map<String, String> checksums = request.checksums().get();
                if (checksums != null && !checksums.isEmpty()) {
                    attributes = attributes.withChecksums(checksums);
                }
            }
            Manifest manifest = new Manifest(request.bucket(), request.key(), BackendLayout.newId(), written.size(),
                    HexFormat.of().formatHex(written.md5()), Instant.now().truncatedTo(ChronoUnit.MILLIS),
                    attributes, List.of(), written.entries(), written.inline());
            return commits.commit(manifest, written.newChunks(), request.precondition(), null, writer);
        } catch (RuntimeException e) {
            writer.discard(written);
            throw e;
        }
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) {
        return ObjectReads.info(reads.record(bucket, key));
    }

    @Override
    public ObjectContent getObject(String bucket, String key, ByteRange range) {
        return getObject(bucket, key, range, info -> { });
    }

    @Override
    public ObjectContent getObject(String bucket, String key, ByteRange range, Consumer<ObjectInfo> check) {
        ObjectRecord record = reads.record(bucket, key);
        ObjectInfo info = ObjectReads.info(record);
        check.accept(info);
        ByteRange.Resolved resolved = range == null ? null : range.resolve(record.size());
        long offset = resolved == null ? 0 : resolved.offset();
        long length = resolved == null ? record.size() : resolved.length();
        Manifest m = reads.openManifest(record);
        return new ObjectContent(info, resolved, reads.content(m, offset, length));
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, int partNumber) {
        ObjectRecord record = reads.record(bucket, key);
        ObjectInfo info = ObjectReads.info(record);
        ByteRange.Resolved part = info.partRange(partNumber);
        Manifest m = reads.openManifest(record);
        ByteRange.Resolved range = part.length() == 0 ? null : part;
        return new ObjectContent(info, range, reads.content(m, part.offset(), part.length()));
    }

    @Override
    public void deleteObject(String bucket, String key) {
        Names.checkKey(key);
        headBucket(bucket);
        meta.deleteObject(bucket, key).ifPresent(old -> commits.forgetManifest(old.versionId()));
    }

    @Override
    public List<DeleteResult> deleteObjects(String bucket, List<String> keys) {
        headBucket(bucket);
        List<DeleteResult> results = new ArrayList<>(keys.size());
        for (String key : keys) {
            try {
                deleteObject(bucket, key);
                results.add(new DeleteResult(key, null));
            } catch (CofferException e) {
                results.add(new DeleteResult(key, e));
            }
        }
        return results;
    }

    @Override
    public ObjectInfo copyObject(CopySource source, String bucket, String key, ObjectAttributes attributes,
                                 Precondition precondition) {
        Names.checkKey(key);
        ObjectRecord src = reads.copySource(source);
        headBucket(bucket);
        Manifest from = reads.openManifest(src);
        ObjectAttributes attrs = attributes == null ? from.attributes()
                : attributes.withChecksums(from.attributes().checksums());
        Manifest copy = from.copyAs(bucket, key, BackendLayout.newId(), Instant.now().truncatedTo(ChronoUnit.MILLIS),
                attrs);
        return commits.commit(copy, NewChunks.NONE, precondition == null ? Precondition.NONE : precondition, null,
                null);
    }

    @Override
    public ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        if (maxKeys < 0) {
            throw CofferException.invalid("max-keys must be non-negative");
        }
        return meta.listObjects(bucket, prefix == null ? "" : prefix, delimiter == null || delimiter.isEmpty()
                ? null : delimiter, after, Math.min(maxKeys, MAX_LIST));
    }

    // ---- multipart

    @Override
    public String createMultipartUpload(String bucket, String key, ObjectAttributes attributes,
                                        MultipartChecksum checksum) {
        Names.checkKey(key);
        BucketRecord b = headBucket(bucket);
        String uploadId = BackendLayout.newId();
        meta.createUpload(new UploadRecord(uploadId, bucket, key, b.owner(), Instant.now().truncatedTo(
                ChronoUnit.MILLIS), UploadChecksums.encodeUpload(attributes, checksum)));
        return uploadId;
    }

    @Override
    public PartInfo uploadPart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, InputStream body) {
        checkPartNumber(partNumber);
        MultipartChecksum checksum = UploadChecksums.checksumOf(upload(bucket, key, uploadId));
        try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(config,
                contentLength, 0))) {
            return writePart(bucket, key, uploadId, partNumber, contentLength, contentMd5, checksum, body);
        }
    }

    private PartInfo writePart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, MultipartChecksum checksum, InputStream body) {
        ObjectWriter writer = new ObjectWriter(ctx, bucket, key, contentLength, 0);
        ChecksumInputStream summed = checksum == null ? null : new ChecksumInputStream(body, checksum.algorithm());
        ObjectWriter.Result written = ObjectCommits.writeBody(writer, summed == null ? body : summed);
        try {
            if (contentMd5 != null && !MessageDigest.isEqual(contentMd5, written.md5())) {
                throw CofferException.of(ErrorCode.BAD_DIGEST,
                        "The Content-MD5 you specified did not match what we received.");
            }
            ObjectCommits.awaitUploads(writer);
            return commitPart(bucket, key, uploadId, partNumber, written.size(),
                    HexFormat.of().formatHex(written.md5()), written.entries(), written.newChunks(),
                    summed == null ? Map.of() : Map.of(summed.algorithm().name(), summed.base64()));
        } catch (RuntimeException e) {
            writer.discard(written);
            throw e;
        }
    }

    @Override
    public PartInfo uploadPartCopy(CopySource source, ByteRange range, String bucket, String key, String uploadId,
                                   int partNumber) {
        checkPartNumber(partNumber);
        MultipartChecksum checksum = UploadChecksums.checksumOf(upload(bucket, key, uploadId));
        ObjectRecord src = reads.copySource(source);
        Manifest from = reads.openManifest(src);
        String sourceSum = checksum == null ? null : from.attributes().checksums().get(checksum.algorithm().name());
        if (range == null && from.partSizes().isEmpty() && !from.isInline()
                && (checksum == null || sourceSum != null)) {
            // the whole of a single-PUT object: share its chunks, its MD5 (and any checksum) is already known
            return commitPart(bucket, key, uploadId, partNumber, from.size(), from.etag(), from.entries(),
                    NewChunks.NONE, checksum == null ? Map.of() : Map.of(checksum.algorithm().name(), sourceSum));
        }
        // a sub-range (or a multipart source, whose ETag is not an MD5) needs the MD5 of exactly those bytes:
        // stream them through the write path; dedup keeps whole chunks from being stored twice
        ByteRange.Resolved r = range == null ? new ByteRange.Resolved(0, from.size()) : range.resolve(from.size());
        try (InputStream in = reads.content(from, r.offset(), r.length())) {
            return uploadPart(bucket, key, uploadId, partNumber, r.length(), null, in);
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    @Override
    public ObjectInfo completeMultipartUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                              Precondition precondition, Map<String, String> objectChecksums) {
        UploadRecord upload;
        try {
            upload = upload(bucket, key, uploadId);
        } catch (CofferException e) {
            if (e.code() != ErrorCode.NO_SUCH_UPLOAD) {
                throw e;
            }
            return completedBefore(bucket, key, uploadId, parts).orElseThrow(() -> e);
        }
        if (parts.isEmpty()) {
            throw CofferException.of(ErrorCode.INVALID_ARGUMENT, "You must specify at least one part");
        }
        for (int i = 1; i < parts.size(); i++) {
            if (parts.get(i).partNumber() <= parts.get(i - 1).partNumber()) {
                throw CofferException.of(ErrorCode.INVALID_PART_ORDER,
                        "The list of parts was not in ascending order. Parts must be ordered by part number.");
            }
        }
        Map<Integer, PartRecord> stored = new java.util.HashMap<>();
        for (PartRecord p : meta.parts(uploadId, 0, MAX_PARTS)) {
            stored.put(p.partNumber(), p);
        }
        MultipartChecksum checksum = UploadChecksums.checksumOf(upload);
        List<ManifestEntry> entries = new ArrayList<>();
        List<Long> sizes = new ArrayList<>(parts.size());
        List<String> partSums = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            CompletedPart want = parts.get(i);
            PartRecord have = stored.get(want.partNumber());
            if (have == null || !have.etag().equals(ETags.unquote(want.etag()))
                    || !UploadChecksums.partMatches(have, want)) {
                throw CofferException.of(ErrorCode.INVALID_PART, "One or more of the specified parts could not be "
                        + "found. The part may not have been uploaded, or the specified entity tag may not match the "
                        + "part's entity tag.");
            }
            if (i < parts.size() - 1 && have.size() < config.minPartSize()) {
                throw CofferException.of(ErrorCode.ENTITY_TOO_SMALL,
                        "Your proposed upload is smaller than the minimum allowed object size.");
            }
            entries.addAll(openPart(uploadId, have).entries());
            sizes.add(have.size());
            if (checksum != null) {
                partSums.add(UploadChecksums.partChecksums(have).get(checksum.algorithm().name()));
            }
        }
        long size = sizes.stream().mapToLong(Long::longValue).sum();
        ObjectAttributes attrs = UploadChecksums.objectAttributes(upload);
        if (checksum != null && !partSums.contains(null)) {
            String objectSum = checksum.combine(partSums, sizes);
            UploadChecksums.checkObjectChecksum(checksum, objectSum, objectChecksums);
            attrs = attrs.withChecksums(Map.of(checksum.algorithm().name(), objectSum));
        } else {
            partSums.clear(); // a part stored before its upload's algorithm was kept: no checksum to make
        }
        Manifest manifest = new Manifest(bucket, key, BackendLayout.newId(), size, multipartEtag(parts),
                Instant.now().truncatedTo(ChronoUnit.MILLIS), attrs, sizes, partSums, entries, null);
        try {
            return commits.commit(manifest, NewChunks.NONE, precondition == null ? Precondition.NONE : precondition,
                    uploadId, null);
        } catch (CofferException e) {
            if (e.code() != ErrorCode.NO_SUCH_UPLOAD) {
                throw e;
            }
            // a concurrent Complete of the same upload (a client's retry) committed first
            return completedBefore(bucket, key, uploadId, parts).orElseThrow(() -> e);
        }
    }

    /**
     * A Complete repeated after the upload completed (a client retrying after a lost response): S3 answers again
     * with the object the upload produced, as long as that is still the key's current version and the request names
     * the same parts (the same ETags in the same order give the same multipart ETag); else empty (NoSuchUpload).
     */
    private Optional<ObjectInfo> completedBefore(String bucket, String key, String uploadId,
                                                 List<CompletedPart> parts) {
        String etag;
        try {
            etag = multipartEtag(parts);
        } catch (IllegalArgumentException notHex) {
            return Optional.empty();
        }
        return meta.completedUpload(bucket, key, uploadId).filter(done -> done.etag().equals(etag))
                .map(ObjectReads::info);
    }

    /**
     * The ETag of an object completed from these parts: the MD5 of their binary MD5s, "-", their count.
     * {@code IllegalArgumentException} if a part's ETag is not hex.
     */
    private static String multipartEtag(List<CompletedPart> parts) {
        MessageDigest md5OfMd5s = Md5Tap.newMd5();
        for (CompletedPart p : parts) {
            md5OfMd5s.update(HexFormat.of().parseHex(ETags.unquote(p.etag())));
        }
        return HexFormat.of().formatHex(md5OfMd5s.digest()) + "-" + parts.size();
    }

    @Override
    public void abortMultipartUpload(String bucket, String key, String uploadId) {
        upload(bucket, key, uploadId);
        meta.abortUpload(uploadId);
    }

    @Override
    public PartListing listParts(String bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        upload(bucket, key, uploadId);
        int max = Math.max(0, Math.min(maxParts, MAX_LIST));
        List<PartRecord> page = meta.parts(uploadId, Math.max(0, partNumberMarker), max + 1);
        boolean truncated = page.size() > max;
        List<PartInfo> parts = page.stream().limit(max)
                .map(p -> new PartInfo(p.partNumber(), p.size(), p.etag(), p.lastModified(),
                        UploadChecksums.partChecksums(p))).toList();
        int next = parts.isEmpty() ? 0 : parts.get(parts.size() - 1).partNumber();
        return new PartListing(bucket, key, uploadId, parts, truncated, next);
    }

    @Override
    public UploadPage listMultipartUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                           String uploadIdMarker, int maxUploads) {
        headBucket(bucket);
        return meta.listUploads(bucket, prefix == null ? "" : prefix, delimiter == null || delimiter.isEmpty() ? null
                : delimiter, keyMarker, uploadIdMarker, Math.max(0, Math.min(maxUploads, MAX_LIST)));
    }

    // ---- administration

    @Override
    public FsckReport fsck(boolean readData) {
        return new Fsck(ctx).run(readData);
    }

    @Override
    public GcReport collectGarbage() {
        return new GarbageCollector(ctx).run();
    }

    @Override
    public ReindexReport reindex() {
        return new Reindexer(ctx).run();
    }

    @Override
    public StoreStats stats() {
        return meta.stats();
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

    // ---- internals

    private PartInfo commitPart(String bucket, String key, String uploadId, int partNumber, long size, String etag,
                                List<ManifestEntry> entries, NewChunks newChunks, Map<String, String> checksums) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Manifest m = new Manifest(bucket, key, uploadId + "." + partNumber, size, etag, now, ObjectAttributes.EMPTY,
                List.of(), entries);
        LinkedHashSet<ChunkId> ids = new LinkedHashSet<>(m.distinctChunkIds());
        meta.commitPart(new PartRecord(uploadId, partNumber, size, etag, now, UploadChecksums.encodePart(checksums),
                StoredRecords.sealPart(config.masterKey(), uploadId, partNumber, m), List.copyOf(ids)), newChunks);
        newChunks.chunks().forEach(c -> ctx.locations.put(c.id(), c));
        return new PartInfo(partNumber, size, etag, now, checksums);
    }

    private UploadRecord upload(String bucket, String key, String uploadId) {
        headBucket(bucket);
        UploadRecord u = meta.upload(uploadId).orElseThrow(() -> CofferException.noSuchUpload(uploadId));
        if (!u.bucket().equals(bucket) || !u.key().equals(key)) {
            throw CofferException.noSuchUpload(uploadId);
        }
        return u;
    }

    private static void checkPartNumber(int partNumber) {
        if (partNumber < 1 || partNumber > MAX_PARTS) {
            throw CofferException.invalid("Part number must be an integer between 1 and 10000, inclusive");
        }
    }

    private Manifest openPart(String uploadId, PartRecord p) {
        try {
            return StoredRecords.openPart(config.masterKey(), uploadId, p.partNumber(), p.manifest());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTEGRITY_ERROR, "A part's manifest failed its integrity check.", e);
        }
    }

    private static CofferException readFailure(IOException e) {
        if (e.getCause() instanceof CofferException ce) {
            return ce;
        }
        return backendFailure("could not read the source object", e);
    }
}

package io.coffer.sdk.engine;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.DeleteResult;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PartListing;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.checksum.ChecksumInputStream;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestCodec;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PartRecord;
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
        Names.checkBucket(bucket);
        Bucket record = new Bucket(bucket, owner, region, Instant.now().truncatedTo(ChronoUnit.MILLIS));
        meta.createBucket(record);
        String blob = StoredRecords.bucketBlob(config.masterKey(), bucket);
        try {
            config.blobs().put(blob, BlobContent.of(StoredRecords.sealBucket(config.masterKey(), record)));
        } catch (IOException e) {
            meta.deleteBucket(bucket);
            throw backendFailure("could not write the bucket record", e);
        }
        return record;
    }

    @Override
    public Bucket headBucket(String bucket) {
        return meta.bucket(bucket).orElseThrow(() -> CofferException.noSuchBucket(bucket));
    }

    @Override
    public List<Bucket> listBuckets(String owner) {
        return meta.buckets().stream().filter(b -> owner == null || owner.equals(b.owner())).toList();
    }

    @Override
    public void deleteBucket(String bucket) {
        meta.deleteBucket(bucket);
        deleteQuietly(StoredRecords.bucketBlob(config.masterKey(), bucket));
    }

    // ---- objects

    @Override
    public ObjectInfo putObject(PutObjectRequest request, InputStream body) {
        Names.checkKey(request.key());
        headBucket(request.bucket());
        precheck(request.bucket(), request.key(), request.precondition());
        try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(config,
                request.contentLength(), config.inlineLimit()))) {
            return writeObject(request, body);
        }
    }

    private ObjectInfo writeObject(PutObjectRequest request, InputStream body) {
        ObjectWriter writer = new ObjectWriter(ctx, request.bucket(), request.key(), request.contentLength(),
                config.inlineLimit());
        ObjectWriter.Result written = writeBody(writer, body);
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
            return commit(manifest, written.newChunks(), request.precondition(), null, writer);
        } catch (RuntimeException e) {
            writer.discard(written);
            throw e;
        }
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) {
        return info(record(bucket, key));
    }

    @Override
    public ObjectContent getObject(String bucket, String key, ByteRange range) {
        ObjectRecord record = record(bucket, key);
        ObjectInfo info = info(record);
        ByteRange.Resolved resolved = range == null ? null : range.resolve(record.size());
        long offset = resolved == null ? 0 : resolved.offset();
        long length = resolved == null ? record.size() : resolved.length();
        Manifest m = openManifest(record);
        return new ObjectContent(info, resolved, content(m, offset, length));
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, int partNumber) {
        ObjectRecord record = record(bucket, key);
        ObjectInfo info = info(record);
        List<Long> parts = info.partSizes().isEmpty() ? List.of(record.size()) : info.partSizes();
        if (partNumber < 1 || partNumber > parts.size()) {
            throw CofferException.of(ErrorCode.INVALID_PART_NUMBER, "The requested partnumber is not satisfiable");
        }
        long offset = 0;
        for (int i = 0; i < partNumber - 1; i++) {
            offset += parts.get(i);
        }
        long length = parts.get(partNumber - 1);
        Manifest m = openManifest(record);
        ByteRange.Resolved range = length == 0 ? null : new ByteRange.Resolved(offset, length);
        return new ObjectContent(info, range, content(m, offset, length));
    }

    /**
     * The bytes [offset, offset + length) of an object: out of its manifest if inline, else read from its packs, with
     * the first run of chunks already read and verified, so that damage there fails this call rather than the read.
     */
    private InputStream content(Manifest m, long offset, long length) {
        if (m.isInline()) {
            return new java.io.ByteArrayInputStream(m.inline(), (int) offset, (int) length);
        }
        ObjectReadStream stream = new ObjectReadStream(ctx, m.entries(), offset, length);
        try {
            stream.start();
        } catch (IOException e) {
            stream.close();
            throw e.getCause() instanceof CofferException ce ? ce
                    : backendFailure("could not read the object's data", e);
        }
        return stream;
    }

    @Override
    public void deleteObject(String bucket, String key) {
        Names.checkKey(key);
        headBucket(bucket);
        meta.deleteObject(bucket, key).ifPresent(old -> forgetManifest(old.versionId()));
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
        ObjectRecord src = sourceRecord(source);
        headBucket(bucket);
        Manifest from = openManifest(src);
        ObjectAttributes attrs = attributes == null ? from.attributes()
                : attributes.withChecksums(from.attributes().checksums());
        Manifest copy = from.copyAs(bucket, key, BackendLayout.newId(), Instant.now().truncatedTo(ChronoUnit.MILLIS),
                attrs);
        return commit(copy, NewChunks.NONE, precondition == null ? Precondition.NONE : precondition, null, null);
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
        Bucket b = headBucket(bucket);
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
        ObjectWriter.Result written = writeBody(writer, summed == null ? body : summed);
        try {
            if (contentMd5 != null && !MessageDigest.isEqual(contentMd5, written.md5())) {
                throw CofferException.of(ErrorCode.BAD_DIGEST,
                        "The Content-MD5 you specified did not match what we received.");
            }
            awaitUploads(writer);
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
        ObjectRecord src = sourceRecord(source);
        Manifest from = openManifest(src);
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
        try (InputStream in = content(from, r.offset(), r.length())) {
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
            if (have == null || !have.etag().equals(unquote(want.etag()))
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
            return commit(manifest, NewChunks.NONE, precondition == null ? Precondition.NONE : precondition,
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
        return meta.completedUpload(bucket, key, uploadId).filter(done -> done.etag().equals(etag)).map(this::info);
    }

    /**
     * The ETag of an object completed from these parts: the MD5 of their binary MD5s, "-", their count.
     * {@code IllegalArgumentException} if a part's ETag is not hex.
     */
    private static String multipartEtag(List<CompletedPart> parts) {
        MessageDigest md5OfMd5s = Md5Tap.newMd5();
        for (CompletedPart p : parts) {
            md5OfMd5s.update(HexFormat.of().parseHex(unquote(p.etag())));
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

    /**
     * Writes the manifest blob (while the writer's last pack may still be uploading), waits until both are durable,
     * then commits; the replaced version's manifest is forgotten after the commit. An inline object's manifest goes
     * into a manifest group instead ({@link ManifestGroups}), which gives it its version id.
     */
    private ObjectInfo commit(Manifest unversioned, NewChunks newChunks, Precondition precondition,
                              String completesUpload, ObjectWriter writer) {
        Manifest m;
        byte[] sealed;
        try {
            if (unversioned.isInline()) {
                ManifestGroups.Member member = ctx.manifestGroups.write(unversioned);
                m = member.manifest();
                sealed = member.sealed();
            } else {
                m = unversioned;
                sealed = StoredRecords.sealManifest(config.masterKey(), m);
                config.blobs().put(BackendLayout.manifest(m.versionId()), BlobContent.of(sealed));
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
        ObjectRecord record = new ObjectRecord(m.bucket(), m.key(), m.versionId(), m.size(), m.etag(),
                m.lastModified(), ManifestCodec.encodeAttributes(m), sealed,
                m.distinctChunkIds());
        Optional<ObjectRecord> replaced;
        try {
            replaced = meta.commitObject(record, newChunks, precondition, completesUpload);
        } catch (RuntimeException e) {
            forgetManifest(m.versionId());
            throw e;
        }
        newChunks.chunks().forEach(c -> ctx.locations.put(c.id(), c));
        replaced.ifPresent(old -> forgetManifest(old.versionId()));
        return new ObjectInfo(m.bucket(), m.key(), m.size(), m.etag(), m.lastModified(), m.attributes(),
                m.partSizes(), m.partChecksums());
    }

    /**
     * Makes a version that is no longer (or never was) committed invisible to reindex: its own manifest blob is
     * deleted; a grouped one gets a tombstone (its group is deleted by gc once no member is live). Best effort: fsck
     * reports what is left, as an orphan.
     */
    private void forgetManifest(String versionId) {
        if (!BackendLayout.isGrouped(versionId)) {
            deleteQuietly(BackendLayout.manifest(versionId));
            return;
        }
        String tombstone = BackendLayout.tombstone(versionId);
        try {
            config.blobs().put(tombstone, BlobContent.of(StoredRecords.sealTombstone(config.masterKey(), versionId)));
        } catch (IOException e) {
            LOG.warn("could not write tombstone {} (fsck reports the version as an orphan): {}", tombstone,
                    e.toString());
        }
    }

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

    private static void awaitUploads(ObjectWriter writer) {
        try {
            writer.awaitUploads();
        } catch (IOException e) {
            throw backendFailure("could not store the object's data", e);
        }
    }

    private ObjectWriter.Result writeBody(ObjectWriter writer, InputStream body) {
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

    /** Early checks of a precondition so a doomed upload is refused before its body is read (checked again at commit). */
    private void precheck(String bucket, String key, Precondition p) {
        if (p.ifNoneMatch() || p.ifMatch() != null) {
            Optional<ObjectRecord> current = meta.object(bucket, key);
            if (p.ifNoneMatch() && current.isPresent()) {
                throw CofferException.of(ErrorCode.PRECONDITION_FAILED, "At least one of the pre-conditions you "
                        + "specified did not hold");
            }
            if (p.ifMatch() != null) {
                if (current.isEmpty()) {
                    throw CofferException.noSuchKey(bucket, key);
                }
                if (!current.get().etag().equals(unquote(p.ifMatch()))) {
                    throw CofferException.of(ErrorCode.PRECONDITION_FAILED, "At least one of the pre-conditions "
                            + "you specified did not hold");
                }
            }
        }
    }

    private ObjectRecord sourceRecord(CopySource s) {
        ObjectRecord src = record(s.bucket(), s.key());
        String etag = src.etag();
        boolean ok = (s.ifMatch() == null || unquote(s.ifMatch()).equals(etag))
                && (s.ifNoneMatch() == null || !unquote(s.ifNoneMatch()).equals(etag))
                && (s.ifUnmodifiedSince() == null || !src.lastModified().isAfter(s.ifUnmodifiedSince()))
                && (s.ifModifiedSince() == null || src.lastModified().isAfter(s.ifModifiedSince()));
        if (!ok) {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED, "At least one of the pre-conditions you "
                    + "specified did not hold");
        }
        return src;
    }

    private ObjectRecord record(String bucket, String key) {
        Names.checkKey(key);
        Optional<ObjectRecord> r = meta.object(bucket, key);
        if (r.isEmpty()) {
            headBucket(bucket);
            throw CofferException.noSuchKey(bucket, key);
        }
        return r.get();
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

    private ObjectInfo info(ObjectRecord r) {
        ManifestCodec.Attributes a = attributesOf(r.attributes());
        return new ObjectInfo(r.bucket(), r.key(), r.size(), r.etag(), r.lastModified(), a.attributes(),
                a.partSizes(), a.partChecksums());
    }

    private static ManifestCodec.Attributes attributesOf(byte[] bytes) {
        try {
            return ManifestCodec.decodeAttributes(bytes);
        } catch (MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "stored attributes are malformed", e);
        }
    }

    private Manifest openManifest(ObjectRecord r) {
        try {
            return StoredRecords.openManifest(config.masterKey(), BackendLayout.manifest(r.versionId()), r.manifest());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTEGRITY_ERROR, "The object's manifest failed its integrity check.",
                    e);
        }
    }

    private Manifest openPart(String uploadId, PartRecord p) {
        try {
            return StoredRecords.openPart(config.masterKey(), uploadId, p.partNumber(), p.manifest());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTEGRITY_ERROR, "A part's manifest failed its integrity check.", e);
        }
    }

    private void deleteQuietly(String blob) {
        try {
            config.blobs().delete(blob);
        } catch (IOException e) {
            LOG.warn("could not delete blob {} (fsck reports it, gc removes it later): {}", blob, e.toString());
        }
    }

    static String unquote(String etag) {
        String e = etag.trim();
        return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
    }

    private static CofferException backendFailure(String what, IOException e) {
        return CofferException.of(ErrorCode.INTERNAL_ERROR, "Backend failure: " + what + " (" + e.getMessage() + ")",
                e);
    }

    private static CofferException readFailure(IOException e) {
        if (e.getCause() instanceof CofferException ce) {
            return ce;
        }
        return backendFailure("could not read the source object", e);
    }
}

package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ObjectKeyResolver;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Names;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PartListing;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.checksum.ChecksumInputStream;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
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
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Multipart uploads: an upload's record, its parts (written or copied, each committed with its own sealed part
 * manifest and checksums), their completion into one object with the multipart ETag and checksum, abort and the
 * listings.
 */
final class MultipartUploads {
    private static final int MAX_PARTS = 10_000;
    /** Candidates for expiry read per metadata query. */
    private static final int EXPIRY_PAGE = 100;

    private final EngineContext ctx;
    private final MetadataStore meta;
    private final Buckets buckets;
    private final ObjectReads reads;
    private final ObjectCommits commits;
    private final LayerCompletions layers;

    MultipartUploads(EngineContext ctx, Buckets buckets, ObjectReads reads, ObjectCommits commits,
                     LayerCompletions layers) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.buckets = buckets;
        this.reads = reads;
        this.commits = commits;
        this.layers = layers;
    }

    /*
     * Each operation takes the bucket's record when its caller already read it for this request ({@code known}, may
     * be null): then it is not read again.
     */

    String create(String bucket, Bucket known, String key, ObjectAttributes attributes, MultipartChecksum checksum) {
        return create(bucket, known, key, attributes, checksum, null);
    }

    /** An upload whose parts are stored under {@code customerKey} (null: none), as its object will be. */
    String create(String bucket, Bucket known, String key, ObjectAttributes attributes, MultipartChecksum checksum,
                  CustomerKey customerKey) {
        return create(bucket, known, key, attributes, checksum, customerKey, ObjectLock.NONE);
    }

    /**
     * An upload whose object's version gets {@code lock} (NONE: the bucket's default retention, if any) when it
     * completes; the lock is checked now as a PutObject's would be (InvalidRequest in a bucket without Object Lock,
     * InvalidArgument for a date not in the future).
     */
    String create(String bucket, Bucket known, String key, ObjectAttributes attributes, MultipartChecksum checksum,
                  CustomerKey customerKey, ObjectLock lock) {
        Names.checkKey(key);
        Bucket b = buckets.head(bucket, known);
        if (lock != null && !lock.equals(ObjectLock.NONE)) {
            ObjectLocks.forNewVersion(ctx.bucketCache.configs(bucket), lock, Instant.now());
        }
        attributes = CustomerKeyWrap.stamp(ctx.config.masterKey(), attributes == null ? ObjectAttributes.EMPTY
                : attributes, customerKey);
        attributes = UploadLocks.stamp(attributes, lock);
        String uploadId = BackendLayout.newId();
        meta.createUpload(new UploadRecord(uploadId, bucket, key, b.owner(), Instant.now().truncatedTo(
                ChronoUnit.MILLIS), UploadChecksums.encodeUpload(attributes, checksum)));
        return uploadId;
    }

    /**
     * A part, under the upload's customer key ({@code customerKey}: the request's, which must be the upload's, null
     * for an upload under none; INVALID_REQUEST otherwise).
     */
    PartInfo uploadPart(String bucket, Bucket known, String key, String uploadId, int partNumber, long contentLength,
                        byte[] contentMd5, InputStream body, CustomerKey customerKey) {
        return uploadPartKeyed(bucket, known, key, uploadId, partNumber, contentLength, contentMd5, body,
                ObjectKeyResolver.of(customerKey));
    }

    /** A part, under the key {@code keys} picks from the upload's attributes (checked as above). */
    PartInfo uploadPartKeyed(String bucket, Bucket known, String key, String uploadId, int partNumber,
                             long contentLength, byte[] contentMd5, InputStream body, ObjectKeyResolver keys) {
        checkPartNumber(partNumber);
        UploadRecord upload = upload(bucket, known, key, uploadId);
        CustomerKey customerKey = keys.keyFor(UploadChecksums.objectAttributes(upload));
        checkUploadKey(upload, customerKey);
        MultipartChecksum checksum = UploadChecksums.checksumOf(upload);
        return uploadPart(bucket, key, uploadId, partNumber, contentLength, contentMd5, checksum, body, customerKey);
    }

    /** The request's customer key is the upload's (both null, or the same key). */
    private void checkUploadKey(UploadRecord upload, CustomerKey given) {
        try {
            CustomerKeyWrap.check(ctx.config.masterKey(), UploadChecksums.objectAttributes(upload), given);
        } catch (CofferException e) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "The provided encryption parameters did not match"
                    + " the ones used originally.");
        }
    }

    /** A part of an upload already found, whose checksum algorithm is {@code checksum}. */
    private PartInfo uploadPart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                                byte[] contentMd5, MultipartChecksum checksum, InputStream body,
                                CustomerKey customerKey) {
        try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(ctx.config,
                contentLength, 0))) {
            return writePart(bucket, key, uploadId, partNumber, contentLength, contentMd5, checksum, body,
                    customerKey == null ? null : new CustomerKeyWrap(customerKey));
        }
    }

    private PartInfo writePart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, MultipartChecksum checksum, InputStream body,
                               CustomerKeyWrap customerKey) {
        ObjectWriter writer = new ObjectWriter(ctx, bucket, key, contentLength, 0, customerKey);
        ChecksumInputStream summed = checksum == null ? null : new ChecksumInputStream(body, checksum.algorithm());
        ObjectWriter.Result written = ObjectCommits.writeBody(writer, summed == null ? body : summed);
        try {
            if (contentMd5 != null && !MessageDigest.isEqual(contentMd5, written.md5())) {
                throw CofferException.of(ErrorCode.BAD_DIGEST,
                        "The Content-MD5 you specified did not match what we received.");
            }
            ObjectCommits.awaitUploads(writer);
            return commitPart(bucket, key, uploadId, partNumber, written.size(),
                    HexFormat.of().formatHex(written.md5()),
                    customerKey == null ? written.entries() : customerKey.wrap(written.entries()), written.newChunks(),
                    summed == null ? Map.of() : Map.of(summed.algorithm().name(), summed.base64()));
        } catch (RuntimeException e) {
            writer.discard(written);
            throw e;
        }
    }

    PartInfo uploadPartCopy(CopySource source, ByteRange range, String bucket, Bucket known, String key,
                            String uploadId, int partNumber) {
        checkPartNumber(partNumber);
        UploadRecord upload = upload(bucket, known, key, uploadId);
        // a part copied into an upload under a customer key would need that key, which UploadPartCopy does not take
        checkUploadKey(upload, null);
        MultipartChecksum checksum = UploadChecksums.checksumOf(upload);
        ObjectRecord src = reads.copySource(source);
        Manifest from = reads.openManifest(src);
        String sourceSum = checksum == null ? null : from.attributes().checksums().get(checksum.algorithm().name());
        if (range == null && from.partSizes().isEmpty() && !from.isInline() && !from.isLayer()
                && (checksum == null || sourceSum != null)) {
            // the whole of a single-PUT object: share its chunks, its MD5 (and any checksum) is already known
            return commitPart(bucket, key, uploadId, partNumber, from.size(), from.etag(), from.entries(),
                    NewChunks.NONE, checksum == null ? Map.of() : Map.of(checksum.algorithm().name(), sourceSum));
        }
        // a sub-range (or a multipart source, whose ETag is not an MD5) needs the MD5 of exactly those bytes, and a
        // layer's chunks are not its bytes: stream them through the write path; dedup keeps whole chunks from being stored twice
        ByteRange.Resolved r = range == null ? new ByteRange.Resolved(0, from.size()) : range.resolve(from.size());
        try (InputStream in = reads.content(from, r.offset(), r.length())) {
            return uploadPart(bucket, key, uploadId, partNumber, r.length(), null, checksum, in, null);
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    ObjectInfo complete(String bucket, Bucket known, String key, String uploadId, List<CompletedPart> parts,
                        Precondition precondition, Map<String, String> objectChecksums) {
        UploadRecord upload;
        try {
            upload = upload(bucket, known, key, uploadId);
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
        Map<Integer, PartRecord> stored = new HashMap<>();
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
            if (i < parts.size() - 1 && have.size() < ctx.config.minPartSize()) {
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
        Precondition when = precondition == null ? Precondition.NONE : precondition;
        try {
            // the layer writer reads the parts' chunks, which under a customer key it cannot open; it commits with
            // the bucket's default lock only
            ObjectLock lock = UploadChecksums.lockOf(upload);
            ObjectInfo layer = CustomerKey.protects(attrs) || !lock.equals(ObjectLock.NONE) ? null
                    : layers.commitAsLayer(manifest, when, uploadId);
            return layer != null ? layer : commits.commit(manifest, NewChunks.NONE, when, uploadId, null, lock);
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

    void abort(String bucket, Bucket known, String key, String uploadId) {
        upload(bucket, known, key, uploadId);
        meta.abortUpload(uploadId);
    }

    /**
     * Aborts uploads initiated before {@code initiatedBefore}, at most {@code max}, walking the candidates a page at a
     * time. Each abort re-checks the upload under its row lock, so one that a concurrent Complete committed is not
     * counted and not touched.
     *
     * @return how many uploads this call aborted
     */
    int expire(Instant initiatedBefore, int max) {
        int expired = 0;
        String after = null;
        while (expired < max) {
            int want = Math.min(EXPIRY_PAGE, max - expired);
            List<UploadRecord> page = meta.uploadsInitiatedBefore(initiatedBefore, after, want);
            for (UploadRecord u : page) {
                if (meta.expireUpload(u.uploadId(), initiatedBefore)) {
                    expired++;
                }
            }
            if (page.size() < want) {
                break;
            }
            after = page.get(page.size() - 1).uploadId();
        }
        return expired;
    }

    PartListing listParts(String bucket, Bucket known, String key, String uploadId, int partNumberMarker,
                          int maxParts) {
        upload(bucket, known, key, uploadId);
        int max = Math.max(0, Math.min(maxParts, Engine.MAX_LIST));
        List<PartRecord> page = meta.parts(uploadId, Math.max(0, partNumberMarker), max + 1);
        boolean truncated = page.size() > max;
        List<PartInfo> parts = page.stream().limit(max)
                .map(p -> new PartInfo(p.partNumber(), p.size(), p.etag(), p.lastModified(),
                        UploadChecksums.partChecksums(p))).toList();
        int next = parts.isEmpty() ? 0 : parts.get(parts.size() - 1).partNumber();
        return new PartListing(bucket, key, uploadId, parts, truncated, next);
    }

    UploadPage listUploads(String bucket, Bucket known, String prefix, String delimiter, String keyMarker,
                           String uploadIdMarker, int maxUploads) {
        buckets.head(bucket, known);
        return meta.listUploads(bucket, prefix == null ? "" : prefix, delimiter == null || delimiter.isEmpty() ? null
                : delimiter, keyMarker, uploadIdMarker, Math.max(0, Math.min(maxUploads, Engine.MAX_LIST)));
    }

    private PartInfo commitPart(String bucket, String key, String uploadId, int partNumber, long size, String etag,
                                List<ManifestEntry> entries, NewChunks newChunks, Map<String, String> checksums) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Manifest m = new Manifest(bucket, key, uploadId + "." + partNumber, size, etag, now, ObjectAttributes.EMPTY,
                List.of(), entries);
        LinkedHashSet<ChunkId> ids = new LinkedHashSet<>(m.distinctChunkIds());
        try {
            meta.commitPart(new PartRecord(uploadId, partNumber, size, etag, now,
                    UploadChecksums.encodePart(checksums),
                    StoredRecords.sealPart(ctx.config.masterKey(), uploadId, partNumber, m), List.copyOf(ids)),
                    newChunks);
        } catch (RuntimeException e) {
            ObjectCommits.forgetIfCollected(e, ctx, List.copyOf(ids));
            throw e;
        }
        ctx.committed(newChunks.chunks());
        return new PartInfo(partNumber, size, etag, now, checksums);
    }

    private UploadRecord upload(String bucket, Bucket known, String key, String uploadId) {
        buckets.head(bucket, known);
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
            return StoredRecords.openPart(ctx.config.masterKey(), uploadId, p.partNumber(), p.manifest());
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

package io.coffer.gateway;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketStats;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.MaintenanceLease;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockConfiguration;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PartListing;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.UsageStats;
import io.coffer.sdk.checksum.MultipartChecksum;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A map-based {@link Coffer} for the gateway's protocol tests only: the objects of
 * {@link InMemoryObjectsForProtocolTests} plus multipart uploads, maintenance answers and Object Lock as the engine
 * gives them for a bucket without it.
 */
public final class InMemoryCofferForProtocolTests extends InMemoryObjectsForProtocolTests {
    private static final long MIN_PART = 5L * 1024 * 1024;

    private final Set<String> leases = ConcurrentHashMap.newKeySet();
    private final Map<String, Upload> uploads = new ConcurrentHashMap<>();
    private final long minPartSize;

    public InMemoryCofferForProtocolTests() {
        this(MIN_PART);
    }

    public InMemoryCofferForProtocolTests(long minPartSize) {
        this.minPartSize = minPartSize;
    }

    private static final class Upload {
        final String id;
        final String bucket;
        final String key;
        final ObjectAttributes attributes;
        final Instant initiated = Instant.now();
        final Map<Integer, Stored> parts = new ConcurrentHashMap<>();

        Upload(String id, String bucket, String key, ObjectAttributes attributes) {
            this.id = id;
            this.bucket = bucket;
            this.key = key;
            this.attributes = attributes;
        }
    }

    @Override
    public String createMultipartUpload(String bucket, String key, ObjectAttributes attributes,
                                        MultipartChecksum checksum) {
        if (checksum != null) {
            throw new UnsupportedOperationException("this protocol-test double keeps no multipart checksums");
        }
        headBucket(bucket);
        String id = UUID.randomUUID().toString().replace("-", "");
        uploads.put(id, new Upload(id, bucket, key, attributes));
        return id;
    }

    private Upload upload(String bucket, String key, String uploadId) {
        Upload u = uploads.get(uploadId);
        if (u == null || !u.bucket.equals(bucket) || !u.key.equals(key)) {
            throw CofferException.noSuchUpload(uploadId);
        }
        return u;
    }

    @Override
    public PartInfo uploadPart(String bucket, String key, String uploadId, int partNumber, long contentLength,
                               byte[] contentMd5, InputStream body) {
        Upload u = upload(bucket, key, uploadId);
        byte[] data = readAll(body);
        if (contentLength >= 0 && data.length != contentLength) {
            throw CofferException.of(ErrorCode.INCOMPLETE_BODY, "length mismatch");
        }
        byte[] md5 = md5(data);
        if (contentMd5 != null && !MessageDigest.isEqual(md5, contentMd5)) {
            throw CofferException.of(ErrorCode.BAD_DIGEST, "md5 mismatch");
        }
        return addPart(u, partNumber, data, md5);
    }

    private PartInfo addPart(Upload u, int partNumber, byte[] data, byte[] md5) {
        String etag = HexFormat.of().formatHex(md5);
        Instant now = Instant.now();
        u.parts.put(partNumber, new Stored(new ObjectInfo(u.bucket, u.key, data.length, etag, now,
                ObjectAttributes.EMPTY, List.of()), data));
        commits.incrementAndGet();
        return new PartInfo(partNumber, data.length, etag, now);
    }

    @Override
    public PartInfo uploadPartCopy(CopySource source, ByteRange range, String bucket, String key, String uploadId,
                                   int partNumber) {
        Upload u = upload(bucket, key, uploadId);
        Stored s = stored(source.bucket(), source.key());
        checkCopySource(source, s.info());
        byte[] data = s.data();
        if (range != null) {
            ByteRange.Resolved r = range.resolve(data.length);
            data = Arrays.copyOfRange(data, (int) r.offset(), (int) (r.offset() + r.length()));
        }
        return addPart(u, partNumber, data, md5(data));
    }

    @Override
    public ObjectInfo completeMultipartUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                              Precondition precondition, Map<String, String> objectChecksums) {
        if (!objectChecksums.isEmpty()) {
            throw new UnsupportedOperationException("this protocol-test double keeps no multipart checksums");
        }
        Upload u = upload(bucket, key, uploadId);
        int prev = 0;
        for (CompletedPart p : parts) {
            if (p.partNumber() <= prev) {
                throw CofferException.of(ErrorCode.INVALID_PART_ORDER, "order");
            }
            prev = p.partNumber();
        }
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteArrayOutputStream md5s = new ByteArrayOutputStream();
        List<Long> sizes = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            CompletedPart p = parts.get(i);
            Stored s = u.parts.get(p.partNumber());
            if (s == null || !s.info().etag().equals(p.etag())) {
                throw CofferException.of(ErrorCode.INVALID_PART, "part " + p.partNumber());
            }
            if (i < parts.size() - 1 && s.data().length < minPartSize) {
                throw CofferException.of(ErrorCode.ENTITY_TOO_SMALL, "part too small");
            }
            all.writeBytes(s.data());
            md5s.writeBytes(HexFormat.of().parseHex(s.info().etag()));
            sizes.add((long) s.data().length);
        }
        String etag = HexFormat.of().formatHex(md5(md5s.toByteArray())) + "-" + parts.size();
        ObjectInfo info = commit(bucket, key, u.attributes, all.toByteArray(), etag, sizes, precondition);
        uploads.remove(uploadId);
        return info;
    }

    @Override
    public int expireMultipartUploads(Instant initiatedBefore, int max) {
        int expired = 0;
        for (Upload u : uploads.values()) {
            if (expired < max && u.initiated.isBefore(initiatedBefore) && uploads.remove(u.id, u)) {
                expired++;
            }
        }
        return expired;
    }

    @Override
    public void abortMultipartUpload(String bucket, String key, String uploadId) {
        upload(bucket, key, uploadId);
        uploads.remove(uploadId);
    }

    @Override
    public PartListing listParts(String bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        Upload u = upload(bucket, key, uploadId);
        List<PartInfo> all = new TreeMap<>(u.parts).entrySet().stream().filter(e -> e.getKey() > partNumberMarker)
                .map(e -> new PartInfo(e.getKey(), e.getValue().info().size(), e.getValue().info().etag(),
                        e.getValue().info().lastModified())).toList();
        boolean truncated = all.size() > maxParts;
        List<PartInfo> page = truncated ? all.subList(0, maxParts) : all;
        return new PartListing(bucket, key, uploadId, page, truncated,
                page.isEmpty() ? 0 : page.get(page.size() - 1).partNumber());
    }

    @Override
    public UploadPage listMultipartUploads(String bucket, String prefix, String delimiter, String keyMarker,
                                           String uploadIdMarker, int maxUploads) {
        headBucket(bucket);
        List<UploadRecord> all = uploads.values().stream().filter(u -> u.bucket.equals(bucket))
                .filter(u -> prefix == null || u.key.startsWith(prefix))
                .filter(u -> keyMarker == null || compareUtf8(u.key, keyMarker) > 0)
                .sorted((a, b) -> {
                    int c = compareUtf8(a.key, b.key);
                    return c != 0 ? c : a.id.compareTo(b.id);
                })
                .map(u -> new UploadRecord(u.id, u.bucket, u.key, headBucket(bucket).owner(), u.initiated, new byte[0]))
                .toList();
        boolean truncated = all.size() > maxUploads;
        List<UploadRecord> page = truncated ? all.subList(0, maxUploads) : all;
        UploadRecord last = page.isEmpty() ? null : page.get(page.size() - 1);
        return new UploadPage(page, List.of(), truncated, last == null ? null : last.key(),
                last == null ? null : last.uploadId());
    }

    @Override
    public FsckReport fsck(boolean readData) {
        return new FsckReport(0, 0, 0, List.of(), List.of());
    }

    @Override
    public GcReport collectGarbage() {
        return new GcReport(0, 0, 0, 0, 0);
    }

    @Override
    public GcReport planGarbageCollection() {
        return new GcReport(0, 0, 0, 0, 0);
    }

    /** One process: a job's lease is held until closed, and a second take while it is held is refused. */
    @Override
    public MaintenanceLease takeMaintenanceLease(String job) {
        if (!leases.add(job)) {
            throw new LeaseHeldException(job, "this process", Instant.MAX);
        }
        return new MaintenanceLease() {
            @Override
            public void renewIfDue() {
            }

            @Override
            public void close() {
                leases.remove(job);
            }
        };
    }

    @Override
    public ReindexReport reindex() {
        return new ReindexReport(0, 0, 0, 0, List.of());
    }

    @Override
    public StoreStats stats() {
        long n = objects.values().stream().mapToLong(Map::size).sum();
        return new StoreStats(n, 0, 0, 0, 0, 0);
    }

    /** Objects and their sizes; every object counts as inline (this store keeps bytes on the heap, not in chunks). */
    @Override
    public StorageStats storageStats() {
        List<BucketStats> perBucket = new ArrayList<>();
        Map<String, UsageStats> tenants = new HashMap<>();
        UsageStats store = UsageStats.EMPTY;
        for (Bucket b : new TreeMap<>(buckets).values()) {
            Collection<Stored> stored = objects.getOrDefault(b.name(), new TreeMap<>()).values();
            long n = stored.size();
            long bytes = stored.stream().mapToLong(o -> o.data().length).sum();
            UsageStats usage = new UsageStats(n, bytes, n, bytes, 0, 0, 0, 0, 0);
            perBucket.add(new BucketStats(b.name(), b.owner(), usage));
            tenants.merge(b.owner(), usage, InMemoryCofferForProtocolTests::sum);
            store = sum(store, usage);
        }
        return new StorageStats(perBucket, tenants, store, 0, 0);
    }

    private static UsageStats sum(UsageStats a, UsageStats b) {
        return new UsageStats(a.objects() + b.objects(), a.logicalBytes() + b.logicalBytes(),
                a.inlineObjects() + b.inlineObjects(), a.inlineBytes() + b.inlineBytes(), 0, 0, 0, 0, 0);
    }

    @Override
    public void close() {
        // nothing to release: everything lives on the heap
    }


    // ---- Object Lock: no bucket of this double has it (it is never versioned), so each answers as the engine does
    // for a bucket without Object Lock

    @Override
    public Bucket createBucket(String bucket, String owner, String region, boolean objectLock) {
        if (objectLock) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, "this protocol-test double has no Object Lock");
        }
        return createBucket(bucket, owner, region);
    }

    @Override
    public Optional<ObjectLockConfiguration> objectLockConfiguration(Bucket bucket) {
        headBucket(bucket.name());
        return Optional.empty();
    }

    @Override
    public void putObjectLockConfiguration(Bucket bucket, ObjectLockConfiguration configuration) {
        headBucket(bucket.name());
        throw CofferException.of(ErrorCode.INVALID_BUCKET_STATE,
                "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration");
    }

    @Override
    public ObjectInfo putObject(PutObjectRequest request, InputStream body, ObjectLock lock) {
        requireNoLock(lock);
        return putObject(request, body);
    }

    @Override
    public ObjectInfo copyObject(CopySource source, Bucket bucket, String key, ObjectAttributes attributes,
                                 Map<String, String> tags, Precondition precondition, ObjectLock lock) {
        requireNoLock(lock);
        return copyObject(source, bucket, key, attributes, tags, precondition);
    }

    @Override
    public ObjectLock objectLock(Bucket bucket, String key, String versionId) {
        throw missingObjectLock();
    }

    @Override
    public ObjectLock putObjectRetention(Bucket bucket, String key, String versionId, ObjectLockMode mode,
                                         Instant retainUntil, boolean bypassGovernance) {
        throw missingObjectLock();
    }

    @Override
    public ObjectLock putObjectLegalHold(Bucket bucket, String key, String versionId, boolean on) {
        throw missingObjectLock();
    }

    private static void requireNoLock(ObjectLock lock) {
        if (!lock.equals(ObjectLock.NONE)) {
            throw missingObjectLock();
        }
    }

    private static CofferException missingObjectLock() {
        return CofferException.of(ErrorCode.INVALID_REQUEST, "Bucket is missing Object Lock Configuration");
    }
}

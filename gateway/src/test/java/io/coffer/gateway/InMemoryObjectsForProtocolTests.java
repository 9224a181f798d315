package io.coffer.gateway;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.DeleteResult;
import io.coffer.sdk.DeletedVersion;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.TagSets;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.VersionPage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The buckets and objects of {@link InMemoryCofferForProtocolTests}: S3 object semantics (ETags, copies, tags,
 * bucket configuration, listing, preconditions) on the heap, without chunking, encryption or persistence. Like the
 * real engine it reads a PUT body to EOF before committing, so a body stream that throws stores nothing.
 */
abstract class InMemoryObjectsForProtocolTests implements Coffer {
    final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    final Map<String, TreeMap<String, Stored>> objects = new ConcurrentHashMap<>();
    /** Bucket configuration documents by "bucket/name". */
    private final Map<String, byte[]> bucketConfigs = new HashMap<>();
    /** Successful commits (puts, parts, completes, copies): tests assert that failed requests stored nothing. */
    public final AtomicInteger commits = new AtomicInteger();

    record Stored(ObjectInfo info, byte[] data) {
    }

    @Override
    public synchronized Bucket createBucket(String bucket, String owner, String region) {
        Bucket existing = buckets.get(bucket);
        if (existing != null) {
            throw CofferException.of(existing.owner().equals(owner) ? ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU
                    : ErrorCode.BUCKET_ALREADY_EXISTS, "bucket exists: " + bucket);
        }
        Bucket b = new Bucket(bucket, owner, region, Instant.now());
        buckets.put(bucket, b);
        objects.put(bucket, new TreeMap<>(InMemoryCofferForProtocolTests::compareUtf8));
        return b;
    }

    static int compareUtf8(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Bucket headBucket(String bucket) {
        Bucket b = buckets.get(bucket);
        if (b == null) {
            throw CofferException.noSuchBucket(bucket);
        }
        return b;
    }

    @Override
    public List<Bucket> listBuckets(String owner) {
        return buckets.values().stream().filter(b -> owner == null || b.owner().equals(owner))
                .sorted(Comparator.comparing(Bucket::name)).toList();
    }

    @Override
    public synchronized void deleteBucket(String bucket) {
        headBucket(bucket);
        if (!objects.get(bucket).isEmpty()) {
            throw CofferException.of(ErrorCode.BUCKET_NOT_EMPTY, "not empty");
        }
        buckets.remove(bucket);
        objects.remove(bucket);
    }

    private TreeMap<String, Stored> bucketObjects(String bucket) {
        headBucket(bucket);
        return objects.get(bucket);
    }

    /** The stored bytes of an object, for assertions. */
    public byte[] data(String bucket, String key) {
        Stored s = bucketObjects(bucket).get(key);
        return s == null ? null : s.data;
    }

    @Override
    public ObjectInfo putObject(PutObjectRequest request, InputStream body) {
        bucketObjects(request.bucket());
        byte[] data = readAll(body);
        if (request.contentLength() >= 0 && data.length != request.contentLength()) {
            throw CofferException.of(ErrorCode.INCOMPLETE_BODY, "length mismatch");
        }
        byte[] md5 = md5(data);
        if (request.contentMd5() != null && !MessageDigest.isEqual(md5, request.contentMd5())) {
            throw CofferException.of(ErrorCode.BAD_DIGEST, "md5 mismatch");
        }
        ObjectAttributes attrs = request.attributes();
        if (request.checksums() != null) {
            Map<String, String> c = request.checksums().get();
            if (c != null && !c.isEmpty()) {
                attrs = attrs.withChecksums(c);
            }
        }
        return commit(request.bucket(), request.key(), attrs, data, HexFormat.of().formatHex(md5), List.of(),
                request.precondition());
    }

    synchronized ObjectInfo commit(String bucket, String key, ObjectAttributes attrs, byte[] data, String etag,
                                           List<Long> parts, Precondition p) {
        TreeMap<String, Stored> m = bucketObjects(bucket);
        Stored current = m.get(key);
        if (p.ifNoneMatch() && current != null) {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED, "exists");
        }
        if (p.ifMatch() != null && (current == null || !current.info.etag().equals(p.ifMatch()))) {
            throw CofferException.of(current == null ? ErrorCode.NO_SUCH_KEY : ErrorCode.PRECONDITION_FAILED,
                    "etag mismatch");
        }
        ObjectInfo info = new ObjectInfo(bucket, key, data.length, etag, Instant.now(), attrs, parts);
        m.put(key, new Stored(info, data));
        commits.incrementAndGet();
        return info;
    }

    Stored stored(String bucket, String key) {
        Stored s = bucketObjects(bucket).get(key);
        if (s == null) {
            throw CofferException.noSuchKey(bucket, key);
        }
        return s;
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) {
        return stored(bucket, key).info;
    }

    @Override
    public ObjectContent getObject(String bucket, String key, ByteRange range) {
        Stored s = stored(bucket, key);
        if (range == null) {
            return new ObjectContent(s.info, null, new ByteArrayInputStream(s.data));
        }
        ByteRange.Resolved r = range.resolve(s.data.length);
        return new ObjectContent(s.info, r, new ByteArrayInputStream(s.data, (int) r.offset(), (int) r.length()));
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, int partNumber) {
        Stored s = stored(bucket, key);
        if (s.info.partCount() == 0) {
            if (partNumber != 1) {
                throw CofferException.of(ErrorCode.INVALID_RANGE, "no such part");
            }
            return getObject(bucket, key, null);
        }
        if (partNumber > s.info.partCount()) {
            throw CofferException.of(ErrorCode.INVALID_RANGE, "no such part");
        }
        long off = 0;
        for (int i = 0; i < partNumber - 1; i++) {
            off += s.info.partSizes().get(i);
        }
        ByteRange.Resolved r = new ByteRange.Resolved(off, s.info.partSizes().get(partNumber - 1));
        return new ObjectContent(s.info, r, new ByteArrayInputStream(s.data, (int) off, (int) r.length()));
    }

    @Override
    public synchronized void deleteObject(String bucket, String key, String ifMatch) {
        TreeMap<String, Stored> m = bucketObjects(bucket);
        Stored current = m.get(key);
        if (ifMatch != null && (current == null || !ETags.matches(ifMatch, current.info.etag()))) {
            throw CofferException.of(current == null ? ErrorCode.NO_SUCH_KEY : ErrorCode.PRECONDITION_FAILED,
                    "etag mismatch");
        }
        m.remove(key);
    }

    // ---- versioning: this fake's buckets are never versioned; every object is its one null version

    @Override
    public BucketVersioning bucketVersioning(Bucket bucket) {
        headBucket(bucket.name());
        return BucketVersioning.UNVERSIONED;
    }

    @Override
    public void putBucketVersioning(Bucket bucket, BucketVersioning state) {
        throw CofferException.invalid("the protocol-test fake has no versioning");
    }

    /** The object when {@code versionId} names its one version (null or {@code null}), else NoSuchVersion. */
    private void requireNullVersion(String versionId) {
        if (versionId != null && !versionId.equals(BucketVersioning.NULL_VERSION)) {
            throw CofferException.of(BucketVersioning.isWellFormedId(versionId) ? ErrorCode.NO_SUCH_VERSION
                    : ErrorCode.INVALID_ARGUMENT, "no such version");
        }
    }

    @Override
    public ObjectInfo headObject(String bucket, String key, String versionId) {
        requireNullVersion(versionId);
        return headObject(bucket, key);
    }

    @Override
    public ObjectContent getObject(String bucket, String key, String versionId, ByteRange range,
                                   java.util.function.Consumer<ObjectInfo> check) {
        requireNullVersion(versionId);
        return getObject(bucket, key, range, check);
    }

    @Override
    public ObjectContent getObjectPart(String bucket, String key, String versionId, int partNumber) {
        requireNullVersion(versionId);
        return getObjectPart(bucket, key, partNumber);
    }

    @Override
    public DeletedVersion deleteObjectVersion(Bucket bucket, String key, String versionId, String ifMatch,
                                              boolean bypassGovernance) {
        headBucket(bucket.name());
        if (versionId == null || versionId.equals(BucketVersioning.NULL_VERSION)) {
            deleteObject(bucket.name(), key, ifMatch);
            return versionId == null ? DeletedVersion.UNVERSIONED : new DeletedVersion(versionId, false);
        }
        requireNullVersion(versionId);
        return new DeletedVersion(versionId, false);
    }

    @Override
    public VersionPage listObjectVersions(String bucket, String prefix, String delimiter, String keyMarker,
                                          String versionIdMarker, int maxKeys) {
        ObjectPage page = listObjects(bucket, prefix, delimiter, keyMarker, maxKeys);
        return new VersionPage(page.objects().stream().map(o -> new ObjectVersion(o.key(),
                BucketVersioning.NULL_VERSION, true, false, o.size(), o.etag(), o.lastModified())).toList(),
                page.commonPrefixes(), page.truncated(), page.nextAfter(),
                page.truncated() ? BucketVersioning.NULL_VERSION : null);
    }

    @Override
    public List<DeleteResult> deleteObjects(String bucket, List<String> keys) {
        List<DeleteResult> r = new ArrayList<>();
        for (String k : keys) {
            deleteObject(bucket, k);
            r.add(new DeleteResult(k, null));
        }
        return r;
    }

    @Override
    public ObjectInfo copyObject(CopySource source, String bucket, String key, ObjectAttributes attributes,
                                 Map<String, String> tags, Precondition precondition) {
        Stored s = stored(source.bucket(), source.key());
        checkCopySource(source, s.info);
        ObjectAttributes a = (attributes == null ? s.info.attributes() : attributes)
                .withTags(tags == null ? s.info.attributes().tags() : TagSets.objectTags(tags));
        return commit(bucket, key, a, s.data, s.info.etag(), s.info.partSizes(), precondition);
    }

    @Override
    public synchronized Optional<byte[]> bucketConfig(Bucket bucket, String name) {
        headBucket(bucket.name());
        return Optional.ofNullable(bucketConfigs.get(bucket.name() + "/" + name));
    }

    @Override
    public synchronized void putBucketConfig(Bucket bucket, String name, byte[] document) {
        headBucket(bucket.name());
        if (document == null) {
            bucketConfigs.remove(bucket.name() + "/" + name);
        } else {
            bucketConfigs.put(bucket.name() + "/" + name, document);
        }
    }

    @Override
    public synchronized void putObjectTags(String bucket, String key, Map<String, String> tags) {
        Map<String, String> checked = TagSets.objectTags(tags);
        revise(bucket, key, a -> a.withTags(checked));
    }

    @Override
    public synchronized void reviseObjectAttributes(Bucket bucket, String key,
                                                    UnaryOperator<ObjectAttributes> revision) {
        revise(bucket.name(), key, revision);
    }

    @Override
    public synchronized ObjectInfo putObjectTags(Bucket bucket, String key, String versionId,
                                                 Map<String, String> tags) {
        Map<String, String> checked = TagSets.objectTags(tags);
        return reviseObjectAttributes(bucket, key, versionId, a -> a.withTags(checked));
    }

    @Override
    public synchronized ObjectInfo reviseObjectAttributes(Bucket bucket, String key, String versionId,
                                                          UnaryOperator<ObjectAttributes> revision) {
        requireNullVersion(versionId);
        revise(bucket.name(), key, revision);
        return headObject(bucket.name(), key);
    }

    private void revise(String bucket, String key, UnaryOperator<ObjectAttributes> revision) {
        Stored s = stored(bucket, key);
        ObjectInfo i = s.info;
        ObjectInfo revised = new ObjectInfo(i.bucket(), i.key(), i.size(), i.etag(), i.lastModified(),
                revision.apply(i.attributes()), i.partSizes());
        bucketObjects(bucket).put(key, new Stored(revised, s.data));
    }

    static void checkCopySource(CopySource c, ObjectInfo info) {
        boolean ok = (c.ifMatch() == null || c.ifMatch().equals(info.etag()))
                && (c.ifNoneMatch() == null || !c.ifNoneMatch().equals(info.etag()))
                && (c.ifModifiedSince() == null || info.lastModified().isAfter(c.ifModifiedSince()))
                && (c.ifUnmodifiedSince() == null || !info.lastModified().isAfter(c.ifUnmodifiedSince()));
        if (!ok) {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED, "copy source precondition");
        }
    }

    @Override
    public ObjectPage listObjects(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        TreeMap<String, Stored> m = bucketObjects(bucket);
        List<ObjectSummary> out = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        int limit = Math.min(maxKeys, 1000);
        String last = null;
        boolean truncated = false;
        synchronized (this) {
            for (Map.Entry<String, Stored> e : (after == null ? m : m.tailMap(after, false)).entrySet()) {
                String k = e.getKey();
                if (prefix != null && !k.startsWith(prefix)) {
                    continue;
                }
                String entry = null;
                if (delimiter != null) {
                    int from = prefix == null ? 0 : prefix.length();
                    int d = k.indexOf(delimiter, from);
                    if (d >= 0) {
                        entry = k.substring(0, d + delimiter.length());
                    }
                }
                if (entry != null && (entry.equals(last) || (after != null && compareUtf8(entry, after) <= 0))) {
                    continue;
                }
                if (out.size() + prefixes.size() >= limit) {
                    truncated = true;
                    break;
                }
                if (entry != null) {
                    prefixes.add(entry);
                    last = entry;
                } else {
                    ObjectInfo i = e.getValue().info;
                    out.add(new ObjectSummary(k, i.size(), i.etag(), i.lastModified()));
                    last = k;
                }
            }
        }
        return new ObjectPage(out, prefixes, truncated, truncated ? last : null);
    }


    static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] md5(byte[] data) {
        try {
            return MessageDigest.getInstance("MD5").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

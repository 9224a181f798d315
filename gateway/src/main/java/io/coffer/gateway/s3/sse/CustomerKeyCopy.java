package io.coffer.gateway.s3.sse;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectKeyResolver;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A CopyObject or UploadPartCopy with a customer or keyring key (SSE-C, SSE-KMS) on either side: the engine cannot
 * share the source's chunks (they are keyed by the source's key, or by none), so the source is read with its key and
 * written anew under the destination's (or under none). Under the same key on both sides the write deduplicates every chunk: nothing new is stored.
 */
public final class CustomerKeyCopy {
    private final Coffer coffer;

    public CustomerKeyCopy(Coffer coffer) {
        this.coffer = coffer;
    }

    /**
     * Copies {@code source} (read with the key {@code sourceKeys} gives for it) to {@code key} of
     * {@code bucket} under {@code destinationKey} (null: none). {@code attributes}: the copy's attributes from the
     * source's ({@code COPY}) or the request ({@code REPLACE}); {@code tags}: the copy's tags, null for the
     * source's. Copy-source conditions are checked as the engine checks them for a copy by manifest.
     */
    public ObjectInfo copy(CopySource source, ObjectKeyResolver sourceKeys, Bucket bucket, String key,
                           UnaryOperator<ObjectAttributes> attributes, Map<String, String> tags,
                           Precondition precondition, ObjectLock lock, CustomerKey destinationKey) {
        try (ObjectContent content = coffer.getObjectKeyed(source.bucket(), source.key(), source.versionId(), null,
                info -> checkConditions(source, info), sourceKeys)) {
            ObjectInfo from = content.info();
            ObjectAttributes attrs = withoutDigest(attributes.apply(from.attributes()))
                    .withChecksums(from.attributes().checksums())
                    .withTags(tags == null ? from.attributes().tags() : tags);
            Map<String, String> checksums = from.attributes().checksums();
            PutObjectRequest put = new PutObjectRequest(bucket.name(), key, from.size(), attrs, null, precondition,
                    () -> checksums, bucket, destinationKey);
            return coffer.putObject(put, content.stream(), lock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * UploadPartCopy with a key on either side: (the range {@code range} of) {@code source}, read with the key
     * {@code sourceKeys} gives, becomes part {@code partNumber} of the upload, under the key {@code partKeys} gives
     * for the upload (its own).
     */
    public PartInfo copyPart(CopySource source, ByteRange range, ObjectKeyResolver sourceKeys, Bucket bucket,
                             String key, String uploadId, int partNumber, ObjectKeyResolver partKeys) {
        try (ObjectContent content = coffer.getObjectKeyed(source.bucket(), source.key(), source.versionId(), range,
                info -> checkConditions(source, info), sourceKeys)) {
            long length = content.range() == null ? content.info().size() : content.range().length();
            return coffer.uploadPartKeyed(bucket, key, uploadId, partNumber, length, null, content.stream(),
                    partKeys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source's attributes less its customer key's digest (the engine stamps the destination's own). */
    private static ObjectAttributes withoutDigest(ObjectAttributes a) {
        if (!a.headers().containsKey(CustomerKey.DIGEST_HEADER)) {
            return a;
        }
        Map<String, String> headers = new TreeMap<>(a.headers());
        headers.remove(CustomerKey.DIGEST_HEADER);
        return new ObjectAttributes(a.contentType(), a.userMetadata(), headers, a.checksums(), a.tags());
    }

    private static void checkConditions(CopySource s, ObjectInfo src) {
        boolean ok = (s.ifMatch() == null || ETags.matches(s.ifMatch(), src.etag()))
                && (s.ifNoneMatch() == null || !ETags.matches(s.ifNoneMatch(), src.etag()))
                && (s.ifUnmodifiedSince() == null || !src.lastModified().isAfter(s.ifUnmodifiedSince()))
                && (s.ifModifiedSince() == null || src.lastModified().isAfter(s.ifModifiedSince()));
        if (!ok) {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED,
                    "At least one of the pre-conditions you specified did not hold");
        }
    }
}

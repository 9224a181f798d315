package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Names;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.meta.MetadataStore;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The bucket operations: a bucket lives in the metadata store and, sealed, as a record on the backend (so reindex can
 * rebuild it); lookups go through the engine's {@link BucketCache}, and every change waits until other gateways'
 * cached entries of the bucket have expired (see there).
 */
final class Buckets {
    private final EngineContext ctx;
    private final MetadataStore meta;
    private final BucketCache cache;

    Buckets(EngineContext ctx) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.cache = ctx.bucketCache;
    }

    Bucket create(String bucket, String owner, String region) {
        return create(bucket, owner, region, Map.of());
    }

    /** Creates a bucket with its first configuration documents, in its record and the metadata store at once. */
    Bucket create(String bucket, String owner, String region, Map<String, byte[]> configs) {
        Names.checkBucket(bucket);
        // another gateway may still hold the record of a bucket deleted under this name: outwait it before the
        // name is taken again (if the name was taken at the check, this create fails unless it was deleted since:
        // then the wait comes after, and requests already running may see the old record until it ends)
        boolean free = meta.bucket(bucket).isEmpty();
        if (free) {
            cache.awaitPublished();
        }
        Bucket record = new Bucket(bucket, owner, region, Instant.now().truncatedTo(ChronoUnit.MILLIS));
        meta.createBucket(record, configs);
        cache.forget(bucket);
        if (!free) {
            cache.awaitPublished();
        }
        String blob = StoredRecords.bucketBlob(ctx.config.masterKey(), bucket);
        try {
            ctx.config.blobs().put(blob, BlobContent.of(StoredRecords.sealBucket(ctx.config.masterKey(), record,
                    configs)));
        } catch (IOException e) {
            meta.deleteBucket(bucket);
            throw backendFailure("could not write the bucket record", e);
        }
        return record;
    }

    /** The bucket's record (at most {@link BucketCache#FRESHNESS} old); NoSuchBucket if there is none. */
    Bucket head(String bucket) {
        return cache.record(bucket);
    }

    /** {@code known} when the caller already read this bucket's record (non-null, of that name), else its record. */
    Bucket head(String bucket, Bucket known) {
        return known != null && known.name().equals(bucket) ? known : head(bucket);
    }

    List<Bucket> list(String owner) {
        return meta.buckets().stream().filter(b -> owner == null || owner.equals(b.owner())).toList();
    }

    /** The bucket's configuration document {@code name}, if it has one (NoSuchBucket if there is no bucket). */
    Optional<byte[]> config(String bucket, Bucket known, String name) {
        head(bucket, known);
        return Optional.ofNullable(cache.configs(bucket).get(name));
    }

    /**
     * Sets ({@code document} non-null) or removes a configuration document: the bucket's sealed record is written
     * again with all its documents first (reindex restores them from it), then the metadata store's row. Serialized
     * so that two documents set at once both reach the sealed record; returns once other gateways see it
     * ({@link BucketCache}).
     */
    void putConfig(String bucket, Bucket known, String name, byte[] document) {
        writeConfig(bucket, known, name, document);
        cache.awaitPublished();
    }

    private synchronized void writeConfig(String bucket, Bucket known, String name, byte[] document) {
        Bucket b = head(bucket, known);
        Map<String, byte[]> configs = new TreeMap<>(meta.bucketConfigs(bucket));
        if (document == null) {
            configs.remove(name);
        } else {
            configs.put(name, document);
        }
        String blob = StoredRecords.bucketBlob(ctx.config.masterKey(), bucket);
        try {
            ctx.config.blobs().put(blob, BlobContent.of(StoredRecords.sealBucket(ctx.config.masterKey(), b,
                    configs)));
        } catch (IOException e) {
            throw backendFailure("could not write the bucket record", e);
        }
        try {
            meta.putBucketConfig(bucket, name, document);
            cache.forget(bucket);
        } catch (CofferException e) {
            if (e.code() == ErrorCode.NO_SUCH_BUCKET) {
                cache.forget(bucket);
                // deleted meanwhile: the record just written must not bring it back on reindex
                ctx.deleteQuietly(blob);
            }
            throw e;
        }
    }

    void delete(String bucket) {
        cache.publish(bucket, () -> {
            meta.deleteBucket(bucket);
            ctx.deleteQuietly(StoredRecords.bucketBlob(ctx.config.masterKey(), bucket));
            return null;
        });
    }


}

package io.coffer.sdk.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.meta.MetadataStore;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bucket records and configuration documents as the metadata store had them less than {@link #FRESHNESS} ago
 * (issues 22 and 23: a small PUT or GET read its bucket's row on every request, and a PUT its versioning document too).
 *
 * <p>Why a stale entry is safe: an entry is trusted for {@code FRESHNESS} from the moment its read <em>started</em>,
 * and every bucket change (create, delete, a configuration document such as versioning) waits out {@code FRESHNESS}
 * before the call that made it returns ({@link #awaitPublished}); a create waits it out between seeing the name free
 * and inserting the row. So when such a call returns, no gateway on the same metadata store still uses what was there
 * before: a request that starts after a PutBucketVersioning returned commits under the new state, and a bucket
 * deleted and made again (by another tenant) is never seen with its old owner once it exists again. Requests running
 * while a change is made may see either state, as they may without a cache. Only buckets that exist are kept: a miss
 * is read again each time, so NoSuchBucket never comes from here. A commit still checks the bucket's row in its
 * transaction, so a bucket deleted meanwhile fails the write with NoSuchBucket (and the entry is dropped).
 *
 * <p>The price: bucket changes take {@code FRESHNESS} longer. Monotonic clocks of different machines run at the same
 * rate to far better than the margin this needs; wall clocks are not used.
 */
final class BucketCache {
    /** How long an entry is trusted, and how long a bucket change waits before it returns. */
    static final Duration FRESHNESS = Duration.ofMillis(200);
    private static final int MAX_BUCKETS = 100_000;

    /** A value and the {@link Ticker} time at which the read that produced it started. */
    private record Read<T>(T value, long startedNanos) {
    }

    /** Waits; {@link Thread#sleep} in production, a recorder in tests. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final MetadataStore meta;
    private final Duration freshness;
    private final Ticker ticker;
    private final Sleeper sleeper;
    private final Cache<String, Read<Bucket>> records;
    private final Cache<String, Read<Map<String, byte[]>>> configs;

    BucketCache(MetadataStore meta) {
        this(meta, FRESHNESS, Ticker.systemTicker(), d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    BucketCache(MetadataStore meta, Duration freshness, Ticker ticker, Sleeper sleeper) {
        this.meta = meta;
        this.freshness = freshness;
        this.ticker = ticker;
        this.sleeper = sleeper;
        this.records = newCache();
        this.configs = newCache();
    }

    private <T> Cache<String, Read<T>> newCache() {
        return Caffeine.newBuilder().maximumSize(MAX_BUCKETS).ticker(ticker)
                .expireAfter(Expiry.<String, Read<T>>creating((name, read) -> remaining(read))).build();
    }

    /** What is left of an entry's trust, counted from the start of the read that made it. */
    private Duration remaining(Read<?> read) {
        long left = freshness.toNanos() - (ticker.read() - read.startedNanos());
        return Duration.ofNanos(Math.max(0, left));
    }

    /** The bucket's record, at most {@code FRESHNESS} old; NoSuchBucket (read from the store) if there is none. */
    Bucket record(String bucket) {
        Read<Bucket> cached = records.getIfPresent(bucket);
        if (cached != null && !remaining(cached).isZero()) {
            return cached.value();
        }
        return fresh(bucket);
    }

    /** The bucket's record read from the store now; NoSuchBucket if there is none. */
    Bucket fresh(String bucket) {
        long started = ticker.read();
        Optional<Bucket> b = meta.bucket(bucket);
        if (b.isEmpty()) {
            forget(bucket);
            throw CofferException.noSuchBucket(bucket);
        }
        records.put(bucket, new Read<>(b.get(), started));
        return b.get();
    }

    /** The bucket's configuration documents by name, at most {@code FRESHNESS} old (empty for no bucket). */
    Map<String, byte[]> configs(String bucket) {
        Read<Map<String, byte[]>> cached = configs.getIfPresent(bucket);
        if (cached != null && !remaining(cached).isZero()) {
            return cached.value();
        }
        long started = ticker.read();
        Map<String, byte[]> docs = Map.copyOf(meta.bucketConfigs(bucket));
        configs.put(bucket, new Read<>(docs, started));
        return docs;
    }

    /** Drops what is kept about {@code bucket} (this engine changed it, or the store said it is gone). */
    void forget(String bucket) {
        records.invalidate(bucket);
        configs.invalidate(bucket);
    }

    /**
     * Makes a change to {@code bucket} in the store, then returns only once every other engine's entries read before
     * it have expired: {@code change} runs, this engine's entries are dropped, and the call waits
     * {@code FRESHNESS}. A NoSuchBucket from {@code change} drops the entries too.
     */
    <T> T publish(String bucket, Supplier<T> change) {
        T result;
        try {
            result = change.get();
        } catch (CofferException e) {
            if (e.code() == ErrorCode.NO_SUCH_BUCKET) {
                forget(bucket);
            }
            throw e;
        }
        forget(bucket);
        awaitPublished();
        return result;
    }

    /** Waits {@code FRESHNESS}: entries other engines read before now have expired when it returns. */
    void awaitPublished() {
        try {
            sleeper.sleep(freshness);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "interrupted while a bucket change took effect", e);
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.CountingMetadataStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bucket cache on a real SQLite store, with a clock and a sleeper the test controls. */
class BucketCacheTest {
    private static final Duration FRESH = BucketCache.FRESHNESS;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Ticker ticker = now::get;
    private final List<Duration> slept = new CopyOnWriteArrayList<>();
    /** Added to the clock by every bucket read: a slow read. */
    private final AtomicLong readTakes = new AtomicLong();
    private JdbcMetadataStore store;
    private CountingMetadataStore counting;
    private BucketCache cache;

    @BeforeEach
    void open() {
        store = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"));
        counting = new CountingMetadataStore(slowReads(store));
        cache = new BucketCache(counting.store(), FRESH, ticker, slept::add);
        store.createBucket(new Bucket("b", "tenant-1", "us-east-1", Instant.EPOCH));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aRecordIsReadOnceWhileFreshAndAgainOnceItsFreshnessHasPassed() {
        for (int i = 0; i < 5; i++) {
            assertThat(cache.record("b").owner()).isEqualTo("tenant-1");
            now.addAndGet(FRESH.toNanos() / 10);
        }
        assertThat(counting.calls("bucket")).isEqualTo(1);
        now.addAndGet(FRESH.toNanos() / 2);
        cache.record("b");
        assertThat(counting.calls("bucket")).isEqualTo(2);
    }

    @Test
    void freshnessCountsFromTheStartOfTheReadNotItsEnd() {
        readTakes.set(FRESH.toNanos() - 1_000);
        cache.record("b"); // the read ends 1 microsecond before its result expires
        now.addAndGet(1_000);
        cache.record("b");
        assertThat(counting.calls("bucket")).isEqualTo(2);
    }

    @Test
    void aMissingBucketIsNotKeptSoItIsSeenAsSoonAsItExists() {
        assertThatThrownBy(() -> cache.record("later")).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
        store.createBucket(new Bucket("later", "tenant-2", "us-east-1", Instant.EPOCH));
        assertThat(cache.record("later").owner()).isEqualTo("tenant-2");
    }

    @Test
    void configurationDocumentsAreKeptLikeRecordsIncludingNone() {
        assertThat(cache.configs("b")).isEmpty();
        store.putBucketConfig("b", "versioning", "Enabled".getBytes(StandardCharsets.UTF_8));
        assertThat(cache.configs("b")).as("still fresh: the earlier read is served").isEmpty();
        now.addAndGet(FRESH.toNanos());
        assertThat(cache.configs("b")).containsKey("versioning");
        assertThat(counting.calls("bucketConfigs")).isEqualTo(2);
    }

    @Test
    void aRecordThatVanishedIsDroppedAtItsNextStoreRead() {
        cache.record("b");
        store.deleteBucket("b");
        now.addAndGet(FRESH.toNanos());
        assertThatThrownBy(() -> cache.record("b")).isInstanceOf(CofferException.class);
        assertThatThrownBy(() -> cache.record("b")).as("not served from the cache after the miss")
                .isInstanceOf(CofferException.class);
        assertThat(counting.calls("bucket")).isEqualTo(3);
    }

    @Test
    void aChangeDropsThisEnginesEntriesAndReturnsOnlyAfterWaitingOutTheFreshness() {
        cache.record("b");
        cache.configs("b");
        String result = cache.publish("b", () -> {
            store.putBucketConfig("b", "tagging", new byte[] {1});
            assertThat(slept).as("no wait before the change").isEmpty();
            return "changed";
        });
        assertThat(result).isEqualTo("changed");
        assertThat(slept).containsExactly(FRESH);
        assertThat(cache.configs("b")).containsKey("tagging");
        cache.record("b");
        assertThat(counting.calls("bucket")).isEqualTo(2);
    }

    @Test
    void aChangeThatFindsNoBucketDropsTheEntryAndDoesNotWait() {
        cache.record("b");
        store.deleteBucket("b");
        assertThatThrownBy(() -> cache.publish("b", () -> {
            store.putBucketConfig("b", "tagging", new byte[] {1});
            return null;
        })).isInstanceOfSatisfying(CofferException.class, e -> assertThat(e.code())
                .isEqualTo(ErrorCode.NO_SUCH_BUCKET));
        assertThat(slept).isEmpty();
        assertThatThrownBy(() -> cache.record("b")).isInstanceOf(CofferException.class);
    }

    /** The store, with every bucket read moving the test clock on by {@link #readTakes}. */
    private MetadataStore slowReads(MetadataStore delegate) {
        return (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
                new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("bucket")) {
                        now.addAndGet(readTakes.get());
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}

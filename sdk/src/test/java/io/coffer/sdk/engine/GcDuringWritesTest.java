package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.FaultyBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Garbage collection while writes are in flight, on one engine and on two engines sharing one store: a write that
 * deduplicates against a chunk never commits a reference to a chunk the collector removed, whether it found the
 * chunk in the store or in a cache; and one process at a time collects, under a lease.
 */
class GcDuringWritesTest {
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final int SIZE = 300_000;

    @TempDir
    Path dir;

    @Test
    void aWriteThatReusesALongDeadChunkKeepsItThroughACollectionBeforeItsCommit() throws Exception {
        FaultyBlobStore faulty = new FaultyBlobStore(new DirectoryBlobStore(dir.resolve("blobs")));
        try (TestEngine e = TestEngine.open(dir, b -> b.blobStore(faulty).gcGrace(GRACE))) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "old", 7);
            e.coffer.deleteObject("bkt", "old");
            Thread.sleep(GRACE.toMillis() + 200); // the chunk is now dead for longer than the grace period

            FaultyBlobStore.Hold hold = faulty.holdNextPut(BackendLayout.MANIFESTS);
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> put(e.coffer, "new", 7));
            assertThat(hold.reached().await(10, TimeUnit.SECONDS)).isTrue();
            // the write has decided to reuse the dead chunk and waits before its commit: collect now
            GcReport during = e.coffer.collectGarbage();
            hold.release().countDown();
            write.get(10, TimeUnit.SECONDS);

            assertThat(during.packsRetired()).isZero();
            assertThat(read(e.coffer, "new")).isEqualTo(TestData.bytes(7, SIZE));
            Thread.sleep(GRACE.toMillis() + 200);
            e.coffer.collectGarbage();
            assertThat(read(e.coffer, "new")).isEqualTo(TestData.bytes(7, SIZE));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void aChunkCollectedByAnotherEngineIsStoredAgainNotReferencedFromTheCache() throws Exception {
        MasterKey key = MasterKey.loadOrCreate(dir.resolve("master.key"));
        try (Coffer a = engine(key); Coffer b = engine(key)) {
            a.createBucket("bkt", "t");
            put(a, "first", 3); // a caches the chunk as reusable
            b.deleteObject("bkt", "first");
            Thread.sleep(GRACE.toMillis() + 200);
            assertThat(b.collectGarbage().packsRetired()).isEqualTo(1); // the chunk leaves the index

            put(a, "second", 3);

            assertThat(read(b, "second")).isEqualTo(TestData.bytes(3, SIZE));
            Thread.sleep(GRACE.toMillis() + 200);
            b.collectGarbage(); // deletes the retired pack: the second object has a copy of its own
            assertThat(read(a, "second")).isEqualTo(TestData.bytes(3, SIZE));
            assertThat(b.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void aWriteSlowerThanThreeQuartersOfTheGracePeriodIsRefusedNotCommitted() throws Exception {
        FaultyBlobStore faulty = new FaultyBlobStore(new DirectoryBlobStore(dir.resolve("blobs")));
        try (TestEngine e = TestEngine.open(dir, b -> b.blobStore(faulty).gcGrace(GRACE))) {
            e.coffer.createBucket("bkt", "t");
            FaultyBlobStore.Hold hold = faulty.holdNextPut(BackendLayout.PACKS);
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> put(e.coffer, "slow", 5));
            assertThat(hold.reached().await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(GRACE.toMillis() * 3 / 4 + 100); // a collector may delete its pack as an orphan soon
            hold.release().countDown();

            assertThatThrownBy(() -> write.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(CofferException.class)
                    .hasMessageContaining("gc grace period");
            assertThatThrownBy(() -> e.coffer.headObject("bkt", "slow"))
                    .isInstanceOf(CofferException.NotFound.class);
        }
    }

    @Test
    void collectionIsRefusedWhileAnotherProcessHoldsTheLeaseAndRunsOnceItIsFree() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO).meterRegistry(meters))) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "gone", 1);
            e.coffer.deleteObject("bkt", "gone");
            Instant now = Instant.now();
            e.meta.acquireLease(GcLease.NAME, "other-gateway", now, now.plusSeconds(60));

            assertThatThrownBy(e.coffer::collectGarbage).isInstanceOfSatisfying(LeaseHeldException.class,
                    x -> assertThat(x.holder()).isEqualTo("other-gateway"));
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).hasSize(1);

            e.meta.releaseLease(GcLease.NAME, "other-gateway");
            e.collectGarbage();
            GcReport second = e.collectGarbage();

            assertThat(second.bytesFreed()).isPositive();
            assertThat(e.blobs.list(BackendLayout.PACKS).toList()).isEmpty();
            assertThat(meters.counter("coffer.gc.runs").count()).isEqualTo(2.0);
            assertThat(meters.counter("coffer.gc.lease.busy").count()).isEqualTo(1.0);
            assertThat(meters.counter("coffer.gc.freed").count()).isGreaterThanOrEqualTo(second.bytesFreed());
        }
    }

    @Test
    void anExpiredLeaseIsTakenOverAndACollectionGivesItsLeaseBack() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            Instant now = Instant.now();
            e.meta.acquireLease(GcLease.NAME, "crashed-gateway", now.minusSeconds(120), now.minusSeconds(1));

            e.coffer.collectGarbage();

            Instant later = Instant.now();
            assertThat(e.meta.acquireLease(GcLease.NAME, "next", later, later.plusSeconds(60)).holder())
                    .isEqualTo("next");
        }
    }

    @Test
    void aLeaseOfAProcessOfThisHostThatIsGoneIsTakenOverAtOnceAndALiveOnesIsNot() throws Exception {
        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        String host = GcLease.processName().split("/")[0];
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            Instant now = Instant.now();
            e.meta.acquireLease(GcLease.NAME, host + "/" + finished.pid() + "/00000000", now, now.plusSeconds(300));

            e.coffer.collectGarbage();

            String live = host + "/" + ProcessHandle.current().parent().orElseThrow().pid() + "/00000000";
            e.meta.acquireLease(GcLease.NAME, live, now, now.plusSeconds(300));
            assertThatThrownBy(e.coffer::collectGarbage).isInstanceOf(LeaseHeldException.class);
        }
    }

    private Coffer engine(MasterKey key) throws IOException {
        return Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))).masterKey(key).gcGrace(GRACE)
                .build();
    }

    private static void put(Coffer c, String key, long seed) {
        c.putObject(PutObjectRequest.of("bkt", key, SIZE), TestData.stream(seed, SIZE));
    }

    private static byte[] read(Coffer c, String key) throws IOException {
        try (ObjectContent content = c.getObject("bkt", key)) {
            return content.stream().readAllBytes();
        }
    }
}

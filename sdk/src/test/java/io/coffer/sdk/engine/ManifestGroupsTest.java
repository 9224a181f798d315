package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.FaultyBlobStore;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small objects that commit at about the same time share one manifest-group blob; deleting or replacing one leaves a
 * tombstone, so reindex brings back exactly the committed objects, and gc deletes a group once no member is live.
 */
class ManifestGroupsTest {
    @TempDir
    Path dir;

    /** An engine whose backend can hold a put back, so the test decides which writers meet in one group. */
    private record Held(TestEngine engine, FaultyBlobStore faulty) implements AutoCloseable {
        Engine coffer() {
            return (Engine) engine.coffer;
        }

        @Override
        public void close() {
            engine.close();
        }
    }

    private Held open(Duration grace) throws Exception {
        FaultyBlobStore faulty = new FaultyBlobStore(new DirectoryBlobStore(dir.resolve("blobs")));
        TestEngine e = TestEngine.open(dir, b -> b.blobStore(faulty).gcGrace(grace));
        e.coffer.createBucket("bkt", "t");
        return new Held(e, faulty);
    }

    /**
     * Puts {@code first} alone while its group write is held back, then {@code others} concurrently, which gather in
     * the next group; releases the hold once they all wait. Two groups: {first} and {others...}.
     */
    private static void putInTwoGroups(Held h, String first, String... others) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(1 + others.length);
        try {
            FaultyBlobStore.Hold hold = h.faulty().holdNextPut(BackendLayout.GROUPS);
            List<Future<?>> puts = new ArrayList<>();
            puts.add(pool.submit(() -> put(h.engine().coffer, first, 0)));
            assertThat(hold.reached().await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < others.length; i++) {
                String key = others[i];
                int seed = i + 1;
                puts.add(pool.submit(() -> put(h.engine().coffer, key, seed)));
            }
            awaitGathering(h, others.length);
            hold.release().countDown();
            for (Future<?> f : puts) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits until {@code n} writers gather in the open group, behind the group write in flight. */
    private static void awaitGathering(Held h, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (h.coffer().manifestGroups().gathering() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(h.coffer().manifestGroups().gathering()).isEqualTo(n);
    }

    private static Void put(Coffer coffer, String key, int seed) {
        coffer.putObject(PutObjectRequest.of("bkt", key, 1000 + seed), TestData.stream(seed, 1000 + seed));
        return null;
    }

    private static byte[] read(Coffer coffer, String key) throws Exception {
        try (ObjectContent c = coffer.getObject("bkt", key)) {
            return c.stream().readAllBytes();
        }
    }

    private static List<BlobInfo> under(TestEngine e, String prefix) throws Exception {
        return e.blobs.list(prefix).toList();
    }

    @Test
    void smallPutsThatArriveDuringAGroupWriteShareTheNextGroup() throws Exception {
        try (Held h = open(Duration.ofHours(1))) {
            putInTwoGroups(h, "a", "b", "c", "d");

            assertThat(under(h.engine(), BackendLayout.GROUPS)).hasSize(2);
            assertThat(under(h.engine(), BackendLayout.MANIFESTS)).isEmpty();
            List<String> versions = new ArrayList<>();
            for (String k : List.of("b", "c", "d")) {
                versions.add(h.engine().meta.object("bkt", k).orElseThrow().versionId());
            }
            String group = BackendLayout.groupOf(versions.get(0));
            assertThat(versions).allSatisfy(v -> assertThat(BackendLayout.groupOf(v)).isEqualTo(group));
            assertThat(versions).extracting(v -> v.substring(v.indexOf('.') + 1)).containsExactlyInAnyOrder(
                    "0", "1", "2");
            assertThat(read(h.engine().coffer, "a")).isEqualTo(TestData.bytes(0, 1000));
            assertThat(read(h.engine().coffer, "d")).isEqualTo(TestData.bytes(3, 1003));
            FsckReport fsck = h.engine().coffer.fsck(true);
            assertThat(fsck.clean()).isTrue();
            assertThat(fsck.orphans()).isEmpty();
        }
    }

    @Test
    void deletedAndReplacedGroupMembersGetTombstonesAndReindexDoesNotReviveThem() throws Exception {
        try (Held h = open(Duration.ofHours(1))) {
            putInTwoGroups(h, "solo", "kept", "deleted", "replaced");
            h.engine().coffer.deleteObject("bkt", "deleted");
            // replaced by a chunked object (its own manifest blob), which is then deleted: the grouped version
            // must not come back either
            h.engine().coffer.putObject(PutObjectRequest.of("bkt", "replaced", 20_000), TestData.stream(9, 20_000));
            h.engine().coffer.deleteObject("bkt", "replaced");
            assertThat(under(h.engine(), BackendLayout.TOMBSTONES)).hasSize(2);
            assertThat(h.engine().coffer.fsck(true).orphans()).isEmpty();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.skippedBlobs()).isZero();
            assertThat(rebuilt.listObjects("bkt", "", null, 100).objects()).extracting(ObjectSummary::key)
                    .containsExactly("kept", "solo");
            assertThat(read(rebuilt, "kept")).isEqualTo(TestData.bytes(1, 1001));
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void gcDeletesAGroupOnlyOnceNoMemberIsLiveAndThenItsTombstones() throws Exception {
        try (Held h = open(Duration.ZERO)) {
            putInTwoGroups(h, "solo", "x", "y");
            h.engine().coffer.deleteObject("bkt", "x");
            h.engine().collectGarbage();
            assertThat(under(h.engine(), BackendLayout.GROUPS)).hasSize(2);
            assertThat(under(h.engine(), BackendLayout.TOMBSTONES)).hasSize(1);
            assertThat(read(h.engine().coffer, "y")).isEqualTo(TestData.bytes(2, 1002));

            h.engine().coffer.deleteObject("bkt", "y");
            h.engine().coffer.deleteObject("bkt", "solo");
            h.engine().collectGarbage();
            assertThat(under(h.engine(), BackendLayout.GROUPS)).isEmpty();
            assertThat(under(h.engine(), BackendLayout.TOMBSTONES)).isEmpty();
            FsckReport fsck = h.engine().coffer.fsck(true);
            assertThat(fsck.clean()).isTrue();
            assertThat(fsck.orphans()).isEmpty();
        }
    }

    @Test
    void fsckReportsAMissingGroupAndAMemberWithoutItsTombstone() throws Exception {
        try (Held h = open(Duration.ofHours(1))) {
            putInTwoGroups(h, "solo", "p", "q");
            h.engine().coffer.deleteObject("bkt", "q");
            BlobInfo tombstone = under(h.engine(), BackendLayout.TOMBSTONES).get(0);
            h.engine().blobs.delete(tombstone.name());
            String pGroup = BackendLayout.groupOf(h.engine().meta.object("bkt", "p").orElseThrow().versionId());
            assertThat(h.engine().coffer.fsck(true).orphans()).containsExactly(BackendLayout.group(pGroup)
                    + " member " + tombstone.name().substring(tombstone.name().lastIndexOf('.') + 1)
                    + " (no tombstone)");

            String soloGroup = BackendLayout.group(BackendLayout.groupOf(
                    h.engine().meta.object("bkt", "solo").orElseThrow().versionId()));
            h.engine().blobs.delete(soloGroup);
            FsckReport fsck = h.engine().coffer.fsck(false);
            assertThat(fsck.damaged()).singleElement().asString().startsWith("bkt/solo: manifest blob " + soloGroup
                    + " missing");
        }
    }

    @Test
    void aFailedGroupWriteFailsEveryMemberAndCommitsNone() throws Exception {
        try (Held h = open(Duration.ofHours(1))) {
            h.faulty().failNextPuts(1);
            assertThatThrownBy(() -> put(h.engine().coffer, "lost", 0)).hasMessageContaining("manifest");
            assertThat(h.engine().meta.object("bkt", "lost")).isEmpty();
            put(h.engine().coffer, "next", 1);
            assertThat(read(h.engine().coffer, "next")).isEqualTo(TestData.bytes(1, 1001));
        }
    }

    @Test
    void aGroupWriterThatDiesOfAnErrorFailsItsFellowMembersAndTheNextGroupIsWritten() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (Held h = open(Duration.ofHours(1))) {
            FaultyBlobStore.Hold hold = h.faulty().holdNextPut(BackendLayout.GROUPS);
            Future<?> first = pool.submit(() -> put(h.engine().coffer, "first", 0));
            assertThat(hold.reached().await(10, TimeUnit.SECONDS)).isTrue();
            // b and c gather in the next group, whose writer's backend put then dies of an Error
            h.faulty().errorOnNextPut(BackendLayout.GROUPS);
            List<Future<?>> next = List.of(pool.submit(() -> put(h.engine().coffer, "b", 1)),
                    pool.submit(() -> put(h.engine().coffer, "c", 2)));
            awaitGathering(h, 2);
            hold.release().countDown();
            first.get(10, TimeUnit.SECONDS);

            List<Throwable> failures = new ArrayList<>();
            for (Future<?> f : next) {
                assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).satisfies(t -> failures.add(t.getCause()));
            }
            // the writer gets its own Error; the member it wrote for is woken and fails instead of waiting forever
            assertThat(failures).filteredOn(t -> t instanceof AssertionError).hasSize(1);
            assertThat(failures).filteredOn(t -> !(t instanceof AssertionError)).singleElement()
                    .satisfies(t -> assertThat(t).hasStackTraceContaining("did not finish"));
            assertThat(h.engine().meta.object("bkt", "b")).isEmpty();
            assertThat(h.engine().meta.object("bkt", "c")).isEmpty();

            put(h.engine().coffer, "after", 3);
            assertThat(read(h.engine().coffer, "after")).isEqualTo(TestData.bytes(3, 1003));
            assertThat(read(h.engine().coffer, "first")).isEqualTo(TestData.bytes(0, 1000));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aGroupBlobIsCheckedStrictlyAndItsMembersCannotBeReordered() throws Exception {
        byte[] two = ManifestGroups.encode(List.of(new byte[] {1, 2}, new byte[] {3}));
        assertThat(ManifestGroups.decode(two)).hasSize(2);
        byte[] cut = Arrays.copyOf(two, two.length - 1);
        assertThatThrownBy(() -> ManifestGroups.decode(cut)).isInstanceOf(MalformedRecordException.class);
        byte[] longer = Arrays.copyOf(two, two.length + 1);
        assertThatThrownBy(() -> ManifestGroups.decode(longer)).isInstanceOf(MalformedRecordException.class);

        try (Held h = open(Duration.ofHours(1))) {
            putInTwoGroups(h, "solo", "m", "n");
            String group = BackendLayout.group(BackendLayout.groupOf(
                    h.engine().meta.object("bkt", "m").orElseThrow().versionId()));
            List<byte[]> members = ManifestGroups.decode(h.engine().blobs.read(group, 0,
                    (int) h.engine().blobs.head(group).orElseThrow().size()));
            // a backend that swaps two members: each is sealed under its position, so neither opens
            h.engine().blobs.put(group, BlobContent.of(ManifestGroups.encode(List.of(members.get(1),
                    members.get(0)))));
            assertThat(h.engine().coffer.fsck(true).damaged()).hasSize(2);
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.objects()).isEqualTo(1);
            assertThat(report.skippedBlobs()).isEqualTo(2);
        }
    }
}

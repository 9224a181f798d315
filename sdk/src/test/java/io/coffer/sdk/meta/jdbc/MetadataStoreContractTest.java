package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.meta.PartRecord;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviours every {@link MetadataStore} must have, run against each {@link JdbcMetadataStore} dialect. */
abstract class MetadataStoreContractTest implements StoreContract, BlockMapStoreContract, MaintenanceStoreContract,
        ObjectVersionsContract, ObjectLocksContract, ObjectAttributesContract, MultipartUploadsContract, PacksContract,
        StoreStatsContract, BucketsContract {
    static final Instant T0 = Instant.parse("2025-01-02T03:04:05.678Z");
    static final Comparator<String> UTF8_ORDER =
            (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    JdbcMetadataStore store;

    /** Opens a store on a fresh, empty database. */
    abstract JdbcMetadataStore openStore();

    /** Opens another store on the same database as the last {@link #openStore()}. */
    abstract JdbcMetadataStore reopenStore();

    /** A plain JDBC connection to the same database, for test setup that bypasses the store. */
    abstract Connection rawConnection() throws SQLException;

    @BeforeEach
    void open() {
        store = openStore();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    public JdbcMetadataStore metadata() {
        return store;
    }

    @Override
    public JdbcMetadataStore reopenMetadata() {
        store.close();
        store = reopenStore();
        return store;
    }

    // ---- helpers

    static ChunkId id(int n) {
        byte[] bytes = new byte[ChunkId.LENGTH];
        bytes[0] = (byte) (n >>> 24);
        bytes[1] = (byte) (n >>> 16);
        bytes[2] = (byte) (n >>> 8);
        bytes[3] = (byte) n;
        bytes[31] = (byte) 0xA5;
        return ChunkId.of(bytes);
    }

    static List<ChunkId> ids(int... ns) {
        return IntStream.of(ns).mapToObj(MetadataStoreContractTest::id).toList();
    }

    static NewChunks newChunks(String pack, int... ns) {
        List<ChunkLocation> locations = new ArrayList<>();
        for (int i = 0; i < ns.length; i++) {
            locations.add(new ChunkLocation(id(ns[i]), pack, 100L * i, 100));
        }
        return new NewChunks(List.of(new PackRecord(pack, 100L * ns.length + 10, T0)), locations);
    }

    static ObjectRecord object(String bucket, String key, String version, int... chunks) {
        return new ObjectRecord(bucket, key, version, 10L * chunks.length, "etag-" + version, T0.plusNanos(123_456),
                new byte[] {1, 2}, ("manifest-" + version).getBytes(StandardCharsets.UTF_8), ids(chunks));
    }




    static void assertCode(ErrorCode code, Runnable action) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }

    // ---- objects and reference counts

    @Test
    void commitRegistersChunksAndReferencesThem() {
        bucket("b");
        ObjectRecord record = object("b", "dir/k", "v1", 1, 2, 3);
        Optional<ObjectRecord> replaced = store.commitObject(record, newChunks("p1", 1, 2, 3), Precondition.NONE, null);

        assertThat(replaced).isEmpty();
        assertThat(refs(1)).isEqualTo(1);
        assertThat(refs(2)).isEqualTo(1);
        assertThat(refs(3)).isEqualTo(1);
        assertThat(store.locate(ids(1, 3, 9))).containsOnlyKeys(id(1), id(3))
                .containsEntry(id(3), new ChunkLocation(id(3), "p1", 200, 100));
        ObjectRecord read = store.object("b", "dir/k").orElseThrow();
        assertThat(read.bucket()).isEqualTo("b");
        assertThat(read.key()).isEqualTo("dir/k");
        assertThat(read.versionId()).isEqualTo("v1");
        assertThat(read.size()).isEqualTo(30);
        assertThat(read.etag()).isEqualTo("etag-v1");
        assertThat(read.lastModified()).isEqualTo(T0);
        assertThat(read.attributes()).containsExactly(1, 2);
        assertThat(read.manifest()).isEqualTo(record.manifest());
        assertThat(read.chunkRefs()).containsExactlyElementsOf(record.chunkRefs());
        assertThat(store.object("b", "dir")).isEmpty();
        assertThat(store.object("other", "dir/k")).isEmpty();
    }

    @Test
    void replacingAnObjectReleasesTheOldReferencesAndReturnsIt() {
        bucket("b");
        store.commitObject(object("b", "k", "v1", 1, 2, 3), newChunks("p1", 1, 2, 3), Precondition.NONE, null);
        Optional<ObjectRecord> replaced =
                store.commitObject(object("b", "k", "v2", 2, 3, 4), newChunks("p2", 4), Precondition.NONE, null);

        assertThat(replaced).map(ObjectRecord::versionId).contains("v1");
        assertThat(replaced.orElseThrow().chunkRefs()).containsExactlyElementsOf(ids(1, 2, 3));
        assertThat(refs(1)).isZero();
        assertThat(refs(2)).isEqualTo(1);
        assertThat(refs(3)).isEqualTo(1);
        assertThat(refs(4)).isEqualTo(1);
        assertThat(store.object("b", "k")).map(ObjectRecord::versionId).contains("v2");
        // the same chunks again: the shared ones never drop to zero and end where they were
        store.commitObject(object("b", "k", "v3", 2, 3, 4), NewChunks.NONE, Precondition.NONE, null);
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4))).containsExactly(0L, 1L, 1L, 1L);
    }

    @Test
    void sharedChunksAreCountedOncePerObjectAndReleasedOnDelete() {
        bucket("b");
        store.registerPack(new PackRecord("p", 1000, T0), newChunks("p", 1, 2).chunks());
        assertThat(refs(1)).isZero();
        put("b", "x", "v1", 1, 2);
        put("b", "y", "v2", 1);
        assertThat(refs(1)).isEqualTo(2);
        assertThat(refs(2)).isEqualTo(1);

        assertThat(store.deleteObject("b", "x")).map(ObjectRecord::versionId).contains("v1");
        assertThat(refs(1)).isEqualTo(1);
        assertThat(refs(2)).isZero();
        assertThat(store.deleteObject("b", "x")).isEmpty();
        assertThat(store.deleteObject("nobucket", "x")).isEmpty();
        store.deleteObject("b", "y");
        assertThat(refs(1)).isZero();
        assertThat(store.locate(ids(1, 2))).hasSize(2);
    }

    @Test
    void bucketConfigsAreSetReplacedRemovedAndDeletedWithTheirBucket() {
        bucket("b");
        bucket("c");
        assertThat(store.bucketConfigs("b")).isEmpty();
        store.putBucketConfig("b", "tagging", new byte[] {1});
        store.putBucketConfig("b", "tagging", new byte[] {2});
        store.putBucketConfig("b", "cors", new byte[] {3});
        store.putBucketConfig("c", "cors", new byte[] {4});
        assertThat(store.bucketConfigs("b")).containsOnlyKeys("tagging", "cors");
        assertThat(store.bucketConfigs("b").get("tagging")).containsExactly(2);
        store.putBucketConfig("b", "tagging", null);
        assertThat(store.bucketConfigs("b")).containsOnlyKeys("cors");
        assertCode(ErrorCode.NO_SUCH_BUCKET, () -> store.putBucketConfig("nope", "cors", new byte[] {1}));
        store.deleteBucket("b");
        assertThat(store.bucketConfigs("b")).isEmpty();
        bucket("b");
        assertThat(store.bucketConfigs("b")).isEmpty();
        assertThat(store.bucketConfigs("c").get("cors")).containsExactly(4);
    }

    @Test
    void deleteIfMatchDeletesOnlyAMatchingObjectAndKeepsTheReferencesOfOneItRefuses() {
        bucket("b");
        store.registerPack(new PackRecord("p", 1000, T0), newChunks("p", 1).chunks());
        put("b", "x", "v1", 1);
        assertCode(ErrorCode.PRECONDITION_FAILED, () -> store.deleteObject("b", "x", "\"etag-v0\""));
        assertThat(store.object("b", "x")).isPresent();
        assertThat(refs(1)).isEqualTo(1);
        assertCode(ErrorCode.NO_SUCH_KEY, () -> store.deleteObject("b", "y", "etag-v1"));
        assertThat(store.deleteObject("b", "x", "\"etag-v1\"")).map(ObjectRecord::versionId).contains("v1");
        assertThat(refs(1)).isZero();
        assertCode(ErrorCode.NO_SUCH_KEY, () -> store.deleteObject("b", "x", "*"));
    }

    @Test
    void commitToAMissingBucketFailsAndChangesNothing() {
        assertCode(ErrorCode.NO_SUCH_BUCKET, () -> store.commitObject(object("nope", "k", "v1", 1),
                newChunks("p1", 1), Precondition.NONE, null));
        assertThat(store.packs()).isEmpty();
        assertThat(store.refCount(id(1))).isEmpty();
    }

    @Test
    void preconditionsAreCheckedAgainstTheCurrentObject() {
        bucket("b");
        store.registerPack(new PackRecord("p", 1000, T0), newChunks("p", 1, 2).chunks());
        assertCode(ErrorCode.NO_SUCH_KEY, () -> store.commitObject(object("b", "k", "v0", 1), NewChunks.NONE,
                new Precondition("\"etag-v1\"", false), null));
        store.commitObject(object("b", "k", "v1", 1), NewChunks.NONE, new Precondition(null, true), null);

        assertCode(ErrorCode.PRECONDITION_FAILED, () -> store.commitObject(object("b", "k", "v2", 2),
                NewChunks.NONE, new Precondition(null, true), null));
        assertCode(ErrorCode.PRECONDITION_FAILED, () -> store.commitObject(object("b", "k", "v2", 2),
                NewChunks.NONE, new Precondition("etag-other", false), null));
        assertThat(refs(1)).isEqualTo(1);
        assertThat(refs(2)).isZero();
        assertThat(store.object("b", "k")).map(ObjectRecord::versionId).contains("v1");

        store.commitObject(object("b", "k", "v2", 2), NewChunks.NONE, new Precondition("\"etag-v1\"", false), null);
        store.commitObject(object("b", "k", "v3", 2), NewChunks.NONE, new Precondition("etag-v2", false), null);
        store.commitObject(object("b", "k", "v4", 1), NewChunks.NONE, new Precondition("*", false), null);
        assertThat(store.object("b", "k")).map(ObjectRecord::versionId).contains("v4");
        assertThat(refs(1)).isEqualTo(1);
        assertThat(refs(2)).isZero();
    }

    @Test
    void referencingAMissingChunkIsAConflictThatChangesNothing() {
        bucket("b");
        store.commitObject(object("b", "k", "v1", 1, 2), newChunks("p1", 1, 2), Precondition.NONE, null);

        assertCode(ErrorCode.CONFLICT_RETRY, () -> store.commitObject(object("b", "k", "v2", 2, 3, 99),
                newChunks("p2", 3), Precondition.NONE, null));

        assertThat(store.object("b", "k")).map(ObjectRecord::versionId).contains("v1");
        assertThat(refs(1)).isEqualTo(1);
        assertThat(refs(2)).isEqualTo(1);
        assertThat(store.refCount(id(3))).isEmpty();
        assertThat(store.refCount(id(99))).isEmpty();
        assertThat(store.packs()).extracting(PackRecord::name).containsExactly("p1");
    }

    @Test
    void alreadyIndexedChunksKeepTheirLocation() {
        bucket("b");
        store.registerPack(new PackRecord("p1", 1000, T0), newChunks("p1", 1).chunks());
        NewChunks again = new NewChunks(List.of(new PackRecord("p2", 500, T0)),
                List.of(new ChunkLocation(id(1), "p2", 40, 100), new ChunkLocation(id(2), "p2", 140, 50)));
        store.commitObject(object("b", "k", "v1", 1, 2), again, Precondition.NONE, null);

        Map<ChunkId, ChunkLocation> located = store.locate(ids(1, 2));
        assertThat(located.get(id(1)).pack()).isEqualTo("p1");
        assertThat(located.get(id(2))).isEqualTo(new ChunkLocation(id(2), "p2", 140, 50));
        assertThat(refs(1)).isEqualTo(1);
        assertThat(store.packs()).extracting(PackRecord::name).containsExactly("p1", "p2");
    }

    @Test
    void keysAreStoredExactlyIncludingMultibyteCharacters() {
        bucket("b");
        List<String> keys = List.of("é", "日本/語", "😀", "a\u0000b", "\uDBFF\uDFFF", "\uFFFF");
        for (String key : keys) {
            put("b", key, "v-" + key.hashCode());
        }
        for (String key : keys) {
            assertThat(store.object("b", key)).map(ObjectRecord::key).contains(key);
        }
        assertThat(store.listObjects("b", "", null, null, 100).objects()).extracting(ObjectSummary::key)
                .containsExactlyElementsOf(keys.stream().sorted(UTF8_ORDER).toList());
        assertCode(ErrorCode.INVALID_ARGUMENT, () -> store.object("b", "bad\uD800"));
    }

    // ---- listing

    static final List<String> LISTING_KEYS = List.of(
            "a", "a/b", "a/b/c", "a/c", "a//d", "ab", "a\u007F", "aé/x", "aé", "a\uFF61", "a😀", "a😀/1", "a😀/2",
            "b/1", "b/2", "b/3/4", "b/é/5", "bé", "bé/6", "c", "c😀d", "c😀d😀e", "\uFFFF", "\uFFFF/a", "\uFFFFz",
            "\uDBFF\uDFFF", "\uDBFF\uDFFF/x", "\uDBFF\uDFFF\uDBFF\uDFFF", "z/z/z", "zz");

    void putListingKeys() {
        bucket("b");
        for (String key : LISTING_KEYS) {
            put("b", key, "v" + LISTING_KEYS.indexOf(key));
        }
    }

    /** What S3 returns, computed the slow way: entries (keys or common prefixes) after {@code after}, in byte order. */
    static List<String> expectedEntries(List<String> keys, String prefix, String delimiter, String after) {
        Set<String> entries = new LinkedHashSet<>();
        for (String key : keys.stream().sorted(UTF8_ORDER).toList()) {
            if (!key.startsWith(prefix) || (after != null && UTF8_ORDER.compare(key, after) <= 0)) {
                continue;
            }
            int at = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
            String entry = at < 0 ? key : key.substring(0, at + delimiter.length());
            if (after == null || UTF8_ORDER.compare(entry, after) > 0) {
                entries.add(entry);
            }
        }
        return List.copyOf(entries);
    }

    static List<String> entries(ObjectPage page) {
        List<String> out = new ArrayList<>(page.objects().stream().map(ObjectSummary::key).toList());
        out.addAll(page.commonPrefixes());
        out.sort(UTF8_ORDER);
        return out;
    }

    @Test
    void listingMatchesS3SemanticsForPrefixesDelimitersMarkersAndPageSizes() {
        putListingKeys();
        List<String> prefixes = List.of("", "a", "a/", "a😀", "b/", "bé", "c😀", "\uFFFF", "\uDBFF\uDFFF", "zz",
                "q", "a\u007F");
        List<String> delimiters = Arrays.asList(null, "/", "é", "😀", "b");
        Random random = new Random(42);
        for (String prefix : prefixes) {
            for (String delimiter : delimiters) {
                List<String> all = expectedEntries(LISTING_KEYS, prefix, delimiter, null);
                ObjectPage whole = store.listObjects("b", prefix, delimiter, null, 1000);
                assertThat(entries(whole)).as("prefix %s delimiter %s", prefix, delimiter).isEqualTo(all);
                assertThat(whole.truncated()).isFalse();
                assertThat(whole.objects()).extracting(ObjectSummary::key).isSortedAccordingTo(UTF8_ORDER);
                assertThat(whole.commonPrefixes()).isSortedAccordingTo(UTF8_ORDER);

                // page through with a small page size: every entry exactly once, in order
                int pageSize = 1 + random.nextInt(3);
                List<String> visited = new ArrayList<>();
                String after = null;
                for (int pages = 0; ; pages++) {
                    assertThat(pages).isLessThanOrEqualTo(all.size() + 1);
                    ObjectPage page = store.listObjects("b", prefix, delimiter, after, pageSize);
                    List<String> got = entries(page);
                    assertThat(got.size()).isLessThanOrEqualTo(pageSize);
                    visited.addAll(got);
                    if (!page.truncated()) {
                        assertThat(page.nextAfter()).isNull();
                        break;
                    }
                    assertThat(got).hasSize(pageSize);
                    assertThat(page.nextAfter()).isEqualTo(got.get(got.size() - 1));
                    after = page.nextAfter();
                }
                assertThat(visited).as("paged prefix %s delimiter %s size %d", prefix, delimiter, pageSize)
                        .isEqualTo(all);

                // arbitrary start-after markers, including ones outside the prefix
                for (String marker : List.of("a/b", "a😀", "b/", "\uFFFF", "", "0", "zzz")) {
                    ObjectPage page = store.listObjects("b", prefix, delimiter, marker, 1000);
                    assertThat(entries(page)).as("prefix %s delimiter %s after %s", prefix, delimiter, marker)
                            .isEqualTo(expectedEntries(LISTING_KEYS, prefix, delimiter, marker));
                }
            }
        }
    }

    @Test
    void commonPrefixesCountTowardMaxKeys() {
        putListingKeys();
        ObjectPage page = store.listObjects("b", "", "/", null, 3);
        assertThat(page.objects()).extracting(ObjectSummary::key).containsExactly("a", "ab");
        assertThat(page.commonPrefixes()).containsExactly("a/");
        assertThat(page.truncated()).isTrue();
        assertThat(page.nextAfter()).isEqualTo("ab");

        ObjectPage next = store.listObjects("b", "", "/", "a/", 2);
        assertThat(next.objects()).extracting(ObjectSummary::key).containsExactly("ab", "a\u007F");
        assertThat(next.commonPrefixes()).isEmpty();

        ObjectPage summaries = store.listObjects("b", "a/b", null, null, 10);
        assertThat(summaries.objects()).extracting(ObjectSummary::key).containsExactly("a/b", "a/b/c");
        ObjectSummary first = summaries.objects().get(0);
        assertThat(first.size()).isZero();
        assertThat(first.etag()).isEqualTo("etag-v1");
        assertThat(first.lastModified()).isEqualTo(T0);

        assertThat(store.listObjects("b", "", "/", null, 0).objects()).isEmpty();
        assertThat(entries(store.listObjects("b", "", null, null, Integer.MAX_VALUE)))
                .isEqualTo(expectedEntries(LISTING_KEYS, "", null, null));
        assertCode(ErrorCode.NO_SUCH_BUCKET, () -> store.listObjects("nope", "", null, null, 10));
    }

    @Test
    void delimiterListingSeeksPastCommonPrefixesInsteadOfScanning() throws SQLException {
        bucket("b");
        try (Connection c = rawConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO objects (bucket, key_utf8, version_id, size, "
                    + "etag, last_modified, attributes, manifest, chunk_refs) VALUES (?, ?, ?, 0, 'e', 0, ?, ?, ?)")) {
                for (int i = 0; i < 20_000; i++) {
                    String key = String.format("dir/%05d", i);
                    ps.setString(1, "b");
                    ps.setBytes(2, key.getBytes(StandardCharsets.UTF_8));
                    ps.setString(3, "v" + i);
                    ps.setBytes(4, new byte[] {0});
                    ps.setBytes(5, new byte[] {0});
                    ps.setBytes(6, new byte[0]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            try (Statement s = c.createStatement()) {
                s.execute("ANALYZE");
            }
        }
        put("b", "a", "va");
        put("b", "z", "vz");

        long before = store.statementCount();
        ObjectPage page = store.listObjects("b", "", "/", null, 1000);
        long statements = store.statementCount() - before;
        assertThat(page.objects()).extracting(ObjectSummary::key).containsExactly("a", "z");
        assertThat(page.commonPrefixes()).containsExactly("dir/");
        assertThat(page.truncated()).isFalse();
        // bucket check, the first batch (a, then dir/00000 makes the prefix), one seek past "dir/" (finds z)
        assertThat(statements).isLessThanOrEqualTo(3);

        before = store.statementCount();
        ObjectPage inside = store.listObjects("b", "dir/", "/", "dir/00499", 1000);
        assertThat(store.statementCount() - before).isLessThanOrEqualTo(2);
        assertThat(inside.objects()).hasSize(1000);
        assertThat(inside.objects().get(0).key()).isEqualTo("dir/00500");
        assertThat(inside.nextAfter()).isEqualTo("dir/01499");

        assertThat(String.join("\n", store.explainListing("b", "dir/", "dir/00499")))
                .satisfies(this::assertIndexRangeScan);
    }

    /** Asserts that a plan of the listing range query seeks an index rather than scanning the table. */
    abstract void assertIndexRangeScan(String plan);

    // ---- multipart uploads (MultipartUploadsContract)

    static PartRecord part(String upload, int number, int... chunks) {
        return new PartRecord(upload, number, 5L * chunks.length, "petag-" + number, T0, new byte[] {7},
                new byte[] {8, (byte) number}, ids(chunks));
    }



    // ---- concurrency

    @Test
    void concurrentCommitsToOneKeyKeepExactCounts() throws Exception {
        bucket("b");
        int pool = 20;
        store.registerPack(new PackRecord("p", 10_000, T0),
                newChunks("p", IntStream.range(0, pool).toArray()).chunks());
        int threads = 8;
        int commitsPerThread = 12;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        ConcurrentLinkedQueue<String> replaced = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(executor.submit(() -> {
                    go.await();
                    Random random = new Random(thread);
                    for (int i = 0; i < commitsPerThread; i++) {
                        int[] chunks = random.ints(0, pool).distinct().limit(5).toArray();
                        store.commitObject(object("b", "k", "t" + thread + "-" + i, chunks), NewChunks.NONE,
                                Precondition.NONE, null).ifPresent(r -> replaced.add(r.versionId()));
                        // another key sharing the same chunks, to interleave reference updates
                        store.commitObject(object("b", "k" + thread, "s" + thread + "-" + i, chunks),
                                NewChunks.NONE, Precondition.NONE, null);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        ObjectRecord last = store.object("b", "k").orElseThrow();
        Set<String> seen = new HashSet<>(replaced);
        assertThat(seen).hasSize(replaced.size()).doesNotContain(last.versionId());
        assertThat(replaced).hasSize(threads * commitsPerThread - 1);

        List<ObjectRecord> current = new ArrayList<>();
        current.add(last);
        for (int t = 0; t < threads; t++) {
            current.add(store.object("b", "k" + t).orElseThrow());
        }
        for (int n = 0; n < pool; n++) {
            ChunkId chunk = id(n);
            long expected = current.stream().filter(o -> o.chunkRefs().contains(chunk)).count();
            assertThat(refs(n)).as("chunk %d", n).isEqualTo(expected);
        }
    }

    /** Waits until a store write is blocked behind the open transaction of {@link #rawConnection()}. */
    abstract void awaitBlockedWriter() throws Exception;

    @Test
    void aCommitRacingAnotherInsertOfTheSameKeyReplacesIt() throws Exception {
        bucket("b");
        store.registerPack(new PackRecord("p", 1000, T0), newChunks("p", 1).chunks());
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection raw = rawConnection()) {
            raw.setAutoCommit(false);
            try (PreparedStatement ps = raw.prepareStatement("INSERT INTO objects (bucket, key_utf8, version_id, "
                    + "size, etag, last_modified, attributes, manifest, chunk_refs) "
                    + "VALUES ('b', ?, 'other', 0, 'e', 0, ?, ?, ?)")) {
                ps.setBytes(1, "race".getBytes(StandardCharsets.UTF_8));
                ps.setBytes(2, new byte[] {0});
                ps.setBytes(3, new byte[] {0});
                ps.setBytes(4, new byte[0]);
                ps.executeUpdate();
            }
            // the commit looks for the key, finds nothing committed, and its insert waits for the open transaction
            Future<Optional<ObjectRecord>> commit = executor.submit(() -> store.commitObject(
                    object("b", "race", "mine", 1), NewChunks.NONE, Precondition.NONE, null));
            awaitBlockedWriter();
            assertThat(commit).isNotDone();
            raw.commit();
            assertThat(commit.get(30, TimeUnit.SECONDS)).map(ObjectRecord::versionId).contains("other");
        } finally {
            executor.shutdownNow();
        }
        assertThat(store.object("b", "race")).map(ObjectRecord::versionId).contains("mine");
        assertThat(refs(1)).isEqualTo(1);
    }

    // ---- schema

    @Test
    void aVersionOneDatabaseIsMigratedKeepingItsObjects() throws SQLException {
        bucket("b");
        put("b", "k", "v1");
        store.close();
        try (Connection c = rawConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("ALTER TABLE objects DROP COLUMN upload_id");
            s.executeUpdate("ALTER TABLE chunks DROP COLUMN plain_length");
            s.executeUpdate("DROP TABLE block_map");
            s.executeUpdate("DROP TABLE block_free");
            s.executeUpdate("DROP TABLE block_state");
            s.executeUpdate("DROP TABLE bucket_configs");
            s.executeUpdate("DROP TABLE leases");
            s.executeUpdate("DROP TABLE object_versions");
            s.executeUpdate("ALTER TABLE objects DROP COLUMN null_version");
            s.executeUpdate("DROP TABLE object_locks");
            s.executeUpdate("DELETE FROM schema_version WHERE version > 1");
        }
        store = reopenStore();
        assertThat(store.object("b", "k")).map(ObjectRecord::versionId).contains("v1");
        store.putBucketConfig("b", "cors", new byte[] {1});
        assertThat(store.bucketConfigs("b")).containsOnlyKeys("cors");
        assertThat(store.storageStats().store().objects()).isEqualTo(1);
        assertThat(store.completedUpload("b", "k", "u1")).isEmpty();
        store.createUpload(new UploadRecord("u1", "b", "k", "alice", T0, null));
        store.commitObject(object("b", "k", "v2"), NewChunks.NONE, Precondition.NONE, "u1");
        assertThat(store.completedUpload("b", "k", "u1")).map(ObjectRecord::versionId).contains("v2");
    }

    @Test
    void reopeningKeepsDataAndANewerSchemaIsRefused() throws SQLException {
        bucket("b");
        put("b", "k", "v1");
        store.close();
        store = reopenStore();
        assertThat(store.object("b", "k")).isPresent();
        store.close();
        try (Connection c = rawConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO schema_version (version, applied) VALUES ("
                    + (SchemaMigrations.SCHEMA_VERSION + 1) + ", 0)");
        }
        assertThatThrownBy(this::reopenStore).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.getMessage()).contains("newer"));
        store = reopenStoreIgnoringVersion();
    }

    /** Removes the future schema version row the schema test added, then reopens (so cleanup can close it). */
    JdbcMetadataStore reopenStoreIgnoringVersion() throws SQLException {
        try (Connection c = rawConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM schema_version WHERE version > " + SchemaMigrations.SCHEMA_VERSION);
        }
        return reopenStore();
    }
}

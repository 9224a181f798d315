package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import io.coffer.sdk.testing.TestTar;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SimEnc's layer mode through the engine: gzip objects in a layer-mode bucket are stored partially decoded and read
 * back byte for byte with the MD5 ETag of the original, whole and in ranges; what is not reproducible gzip is stored
 * as it came; a second version of a layer costs a fraction of what it costs in an ordinary bucket, also after a
 * restart; fsck and reindex know layer manifests; B-mode and F-mode pick the space per layer.
 */
class LayerModeTest {
    private static final String LAYERS = "lay";
    private static final String PLAIN = "plain";

    @TempDir
    Path dir;

    @Test
    void gzipOfEveryLevelReadsBackByteExactWithTheOriginalsEtag() throws Exception {
        byte[] text = TestData.text(1, 300_000);
        try (TestEngine e = open(dir, "high")) {
            for (int level = 1; level <= 9; level++) {
                byte[] gz = gzip(text, level);
                ObjectInfo put = put(e.coffer, LAYERS, "l" + level + ".tgz", gz);
                assertThat(put.etag()).isEqualTo(TestData.md5Hex(gz));
                assertThat(manifest(e, LAYERS, "l" + level + ".tgz").isLayer()).as("level %d", level).isTrue();
                assertThat(get(e.coffer, LAYERS, "l" + level + ".tgz", null)).isEqualTo(gz);
                assertThat(e.coffer.headObject(LAYERS, "l" + level + ".tgz").size()).isEqualTo(gz.length);
            }
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    /**
     * The JDK's own gzip reproduces from its decompressed bytes (a zlib recipe): the layer's data entries are the
     * decompressed text, not tokens, and it reads back whole, in ranges and through fsck; a multi-member gzip has no
     * recipe and keeps the token stream.
     */
    @Test
    void zlibWrittenGzipIsStoredDecompressedWithARecipeAndReadsBackExactly() throws Exception {
        byte[] text = TestData.text(21, 700_000);
        byte[] gz = gzip(text, 9);
        byte[] two = concat(gzip(TestData.text(22, 200_000), 6), gzip(TestData.text(23, 200_000), 6));
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "z.tgz", gz);
            put(e.coffer, LAYERS, "two.gz", two);
            Manifest m = manifest(e, LAYERS, "z.tgz");
            assertThat(m.isLayer()).isTrue();
            assertThat(dataBytes(m)).isEqualTo(text.length);
            assertThat(dataBytes(manifest(e, LAYERS, "two.gz"))).isNotEqualTo(400_000);
            assertThat(get(e.coffer, LAYERS, "z.tgz", null)).isEqualTo(gz);
            assertThat(get(e.coffer, LAYERS, "two.gz", null)).isEqualTo(two);
            long[][] ranges = {{0, 0}, {5, 5000}, {gz.length / 2, gz.length - 1}};
            for (long[] r : ranges) {
                assertThat(get(e.coffer, LAYERS, "z.tgz", ByteRange.of(r[0], r[1])))
                        .isEqualTo(Arrays.copyOfRange(gz, (int) r[0], (int) r[1] + 1));
            }
            assertThat(e.coffer.headObject(LAYERS, "z.tgz").etag()).isEqualTo(TestData.md5Hex(gz));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    /**
     * With zlib recipes off (the {@code layer-recipes} setting) the same zlib-written gzip is stored as tokens, as a
     * layer no zlib reproduces is, and reads back whole and in ranges.
     */
    @Test
    void withRecipesOffAZlibWrittenGzipIsStoredAsTokens() throws Exception {
        byte[] text = TestData.text(21, 700_000);
        byte[] gz = gzip(text, 9);
        try (TestEngine e = open(dir, "high", false)) {
            put(e.coffer, LAYERS, "z.tgz", gz);
            Manifest m = manifest(e, LAYERS, "z.tgz");
            assertThat(m.isLayer()).isTrue();
            assertThat(dataBytes(m)).isNotEqualTo(text.length);
            assertThat(get(e.coffer, LAYERS, "z.tgz", null)).isEqualTo(gz);
            assertThat(get(e.coffer, LAYERS, "z.tgz", ByteRange.of(5, 5000)))
                    .isEqualTo(Arrays.copyOfRange(gz, 5, 5001));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    /**
     * A tarball's next version rewrites every header (here every mtime) and keeps every file: stored decompressed and
     * split as a tar (headers apart from the files' data), it adds little more than its headers (measured 2026-11-27:
     * 0.4 % of its gzip size, 4.8 % with each header a sub-chunk of its own among the data; cut at 8 KiB regardless
     * of headers, most sub-chunks of these 4.5 KiB to 9 KiB files would hold a header).
     */
    @Test
    void aTarballsNextVersionWithEveryMtimeChangedAddsLittleMoreThanItsHeaders() throws Exception {
        byte[] gz1 = gzip(TestTar.of(150, 9000, 1_600_000_000L), 9);
        byte[] gz2 = gzip(TestTar.of(150, 9000, 1_700_000_000L), 9);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "v1.tgz", gz1);
            long before = blobBytes(e, "p/");
            put(e.coffer, LAYERS, "v2.tgz", gz2);
            long added = blobBytes(e, "p/") - before;
            System.out.printf("[tar-versions] v2 added %d pack bytes, %.1f %% of its %d gzip bytes%n", added,
                    100.0 * added / gz2.length, gz2.length);
            assertThat(added).isLessThan(gz2.length / 5);
            assertThat(get(e.coffer, LAYERS, "v2.tgz", null)).isEqualTo(gz2);
        }
    }

    /**
     * A tar layer with a recipe is stored split (FORMAT.md "Zlib recipes", version 2): headers first, then the files'
     * data, so its data entries number far fewer than its members (each header was an entry of its own before); it
     * reads back whole, in ranges, through fsck, after a restart and after a reindex.
     */
    @Test
    void aTarLayerIsStoredSplitWithFewerEntriesThanMembersAndReadsBackExactly() throws Exception {
        byte[] tar = TestTar.of(400, 3000, 1_650_000_000L);
        byte[] gz = gzip(tar, 9);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "small-files.tgz", gz);
            Manifest m = manifest(e, LAYERS, "small-files.tgz");
            assertThat(dataBytes(m)).isEqualTo(tar.length);
            assertThat(m.entries().size() - m.layerSide()).isLessThan(400 / 2);
            assertThat(get(e.coffer, LAYERS, "small-files.tgz", null)).isEqualTo(gz);
            long[][] ranges = {{0, 100}, {gz.length / 3, gz.length / 3 + 70_000}, {gz.length - 20, gz.length - 1}};
            for (long[] r : ranges) {
                assertThat(get(e.coffer, LAYERS, "small-files.tgz", ByteRange.of(r[0], r[1])))
                        .isEqualTo(Arrays.copyOfRange(gz, (int) r[0], (int) r[1] + 1));
            }
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
        try (TestEngine e = open(dir, "high")) {
            assertThat(get(e.coffer, LAYERS, "small-files.tgz", null)).isEqualTo(gz);
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            assertThat(rebuilt.reindex().objects()).isEqualTo(1);
            assertThat(get(rebuilt, LAYERS, "small-files.tgz", null)).isEqualTo(gz);
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    /** The bytes of a layer's data entries (after its side entries): tokens, or decompressed bytes with a recipe. */
    private static long dataBytes(Manifest m) {
        return m.entries().subList(m.layerSide(), m.entries().size()).stream().mapToLong(ManifestEntry::length).sum();
    }

    /**
     * The bucket-level document wins over the config key: it turns layer mode on for a bucket the key does not name
     * and off for one it names; removing it gives the key's setting back; it survives a restart and a reindex.
     */
    @Test
    void theBucketLevelSettingTurnsLayerModeOnAndOffOverTheConfigKey() throws Exception {
        byte[] gz = gzip(TestData.text(24, 300_000), 6);
        try (TestEngine e = open(dir, "high")) {
            e.coffer.putBucketConfig(e.coffer.headBucket(PLAIN), LayerModePolicy.BUCKET_CONFIG,
                    LayerModePolicy.bucketDocument("b-mode 0"));
            e.coffer.putBucketConfig(e.coffer.headBucket(LAYERS), LayerModePolicy.BUCKET_CONFIG,
                    LayerModePolicy.bucketDocument("off"));
            put(e.coffer, PLAIN, "on.tgz", gz);
            put(e.coffer, LAYERS, "off.tgz", gz);
            assertThat(manifest(e, PLAIN, "on.tgz").isLayer()).isTrue();
            assertThat(manifest(e, LAYERS, "off.tgz").isLayer()).isFalse();
            assertThat(get(e.coffer, PLAIN, "on.tgz", null)).isEqualTo(gz);
            e.coffer.putBucketConfig(e.coffer.headBucket(LAYERS), LayerModePolicy.BUCKET_CONFIG, null);
            put(e.coffer, LAYERS, "again.tgz", gz);
            assertThat(manifest(e, LAYERS, "again.tgz").isLayer()).isTrue();
        }
        for (String db : new String[] {"coffer.db", "coffer.db-wal", "coffer.db-shm"}) {
            java.nio.file.Files.deleteIfExists(dir.resolve(db)); // reindex rebuilds the metadata from the backend
        }
        try (TestEngine e = TestEngine.open(dir, b -> b.layers(LayerModePolicy.parse(LAYERS + "=high",
                LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE, LayerModePolicy.DEFAULT_THRESHOLD)))) {
            ReindexReport report = e.coffer.reindex();
            assertThat(report.objects()).isEqualTo(3);
            assertThat(e.coffer.bucketConfig(e.coffer.headBucket(PLAIN), LayerModePolicy.BUCKET_CONFIG))
                    .hasValueSatisfying(d -> assertThat(new String(d, StandardCharsets.UTF_8)).isEqualTo("basic:0"));
            put(e.coffer, PLAIN, "on2.tgz", gz);
            assertThat(manifest(e, PLAIN, "on2.tgz").isLayer()).isTrue();
        }
        assertThat(new String(LayerModePolicy.bucketDocument("on"), StandardCharsets.UTF_8)).isEqualTo("high");
        assertThat(new String(LayerModePolicy.bucketDocument("h-mode"), StandardCharsets.UTF_8)).isEqualTo("high");
        assertThat(new String(LayerModePolicy.bucketDocument("F-mode"), StandardCharsets.UTF_8)).isEqualTo("flexible");
        assertThatThrownBy(() -> LayerModePolicy.bucketDocument("b-mode x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LayerModePolicy.bucketDocument("sometimes"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rangesOfALayerAreTheOriginalsBytes() throws Exception {
        byte[] gz = gzip(TestData.text(2, 900_000), 6);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "r.tgz", gz);
            long[][] ranges = {{0, 1}, {0, 1000}, {12345, 54321}, {gz.length - 7, gz.length - 1}, {1, gz.length - 2}};
            for (long[] r : ranges) {
                byte[] got = get(e.coffer, LAYERS, "r.tgz", ByteRange.of(r[0], r[1]));
                assertThat(got).isEqualTo(Arrays.copyOfRange(gz, (int) r[0], (int) r[1] + 1));
            }
        }
    }

    @Test
    void multiMemberGzipIsALayerAndReadsBack() throws Exception {
        byte[] a = gzip(TestData.text(3, 300_000), 6);
        byte[] b = gzip(TestData.text(4, 300_000), 1);
        byte[] both = concat(a, b);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "two.gz", both);
            assertThat(manifest(e, LAYERS, "two.gz").isLayer()).isTrue();
            assertThat(get(e.coffer, LAYERS, "two.gz", null)).isEqualTo(both);
        }
    }

    @Test
    void truncatedGzipAndNonGzipAreStoredAsTheyCame() throws Exception {
        byte[] gz = gzip(TestData.text(5, 400_000), 6);
        byte[] cut = Arrays.copyOf(gz, gz.length / 2);
        byte[] raw = TestData.bytes(6, 300_000);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "cut.gz", cut);
            put(e.coffer, LAYERS, "raw.bin", raw);
            assertThat(manifest(e, LAYERS, "cut.gz").isLayer()).isFalse();
            assertThat(manifest(e, LAYERS, "raw.bin").isLayer()).isFalse();
            assertThat(get(e.coffer, LAYERS, "cut.gz", null)).isEqualTo(cut);
            assertThat(get(e.coffer, LAYERS, "raw.bin", null)).isEqualTo(raw);
            assertThat(e.coffer.headObject(LAYERS, "cut.gz").etag()).isEqualTo(TestData.md5Hex(cut));
        }
    }

    @Test
    void gzipInABucketWithoutLayerModeIsStoredAsItCame() throws Exception {
        byte[] gz = gzip(TestData.text(7, 300_000), 6);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, PLAIN, "x.tgz", gz);
            assertThat(manifest(e, PLAIN, "x.tgz").isLayer()).isFalse();
            assertThat(get(e.coffer, PLAIN, "x.tgz", null)).isEqualTo(gz);
        }
    }

    /**
     * Generated data: 2 MB of made-up text, its second version with ten small edits spread over it, both gzip -6
     * (JDK). Measured (2026-11-26, 3 MB): the second version adds 36 % of what it adds to an ordinary bucket (packs
     * 230 KB: each edit changes the match distances of the 32 KiB window after it; manifests 117 KB: 98 bytes per
     * 1 KiB sub-chunk); the ordinary bucket stores the whole gzip again. The bound leaves room.
     */
    @Test
    void secondVersionOfALayerStoresAFractionOfWhatAnOrdinaryBucketStores() throws Exception {
        byte[] v1 = TestData.text(8, 2_000_000);
        byte[] v2 = edited(v1, 9, 10);
        byte[] gz1 = gzip(v1, 6);
        byte[] gz2 = gzip(v2, 6);
        long layerCost;
        long plainCost;
        try (TestEngine e = open(dir.resolve("a"), "high")) {
            put(e.coffer, LAYERS, "img/v1.tgz", gz1);
            long before = e.backendBytes();
            long[] pre = {blobBytes(e, "p/"), blobBytes(e, "m/"), blobBytes(e, "s/")};
            put(e.coffer, LAYERS, "img/v2.tgz", gz2);
            layerCost = e.backendBytes() - before;
            System.out.printf("[layer-dedup-parts] packs %d manifests %d journal %d entries %d side %d%n",
                    blobBytes(e, "p/") - pre[0], blobBytes(e, "m/") - pre[1], blobBytes(e, "s/") - pre[2],
                    manifest(e, LAYERS, "img/v2.tgz").entries().size(), manifest(e, LAYERS, "img/v2.tgz").layerSide());
            assertThat(get(e.coffer, LAYERS, "img/v2.tgz", null)).isEqualTo(gz2);
        }
        try (TestEngine e = open(dir.resolve("b"), "high")) {
            put(e.coffer, PLAIN, "img/v1.tgz", gz1);
            long before = e.backendBytes();
            put(e.coffer, PLAIN, "img/v2.tgz", gz2);
            plainCost = e.backendBytes() - before;
        }
        System.out.printf("[layer-dedup] gzip %d bytes; second version adds %d bytes in layer mode, %d ordinary%n",
                gz2.length, layerCost, plainCost);
        assertThat(plainCost).isGreaterThan(gz2.length * 9L / 10);
        assertThat(layerCost).isLessThan(plainCost / 2);
    }

    @Test
    void aShiftedLayerFindsSubChunksUnderItsNeighbouringChunksClusters() throws Exception {
        // regions of different vocabularies: v1's 512 KiB token chunks fall into several clusters; v2 starts with new
        // text, so each of its chunks straddles two of v1's and joins at most one of their clusters
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (int region = 0; region < 5; region++) {
            text.writeBytes(TestData.text(40 + region, 1_000_000));
        }
        byte[] v1 = text.toByteArray();
        byte[] gz2 = gzip(concat(TestData.text(50, 200_000), v1), 6);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "img/v1.tgz", gzip(v1, 6));
            put(e.coffer, LAYERS, "img/v2.tgz", gz2);
            Manifest m = manifest(e, LAYERS, "img/v2.tgz");
            var tokens = m.entries().subList(m.layerSide(), m.entries().size());
            long tokenBytes = tokens.stream().mapToLong(ManifestEntry::length).sum();
            long chunks = (tokenBytes + LayerModePolicy.CHUNK_SIZE - 1) / LayerModePolicy.CHUNK_SIZE;
            int keyChanges = 0;
            for (int i = 1; i < tokens.size(); i++) {
                if (!tokens.get(i).clusterKey().equals(tokens.get(i - 1).clusterKey())) {
                    keyChanges++;
                }
            }
            // with one key per chunk there are at most chunks - 1 changes; more means sub-chunks found elsewhere
            assertThat(keyChanges).isGreaterThan((int) chunks - 1);
            assertThat(get(e.coffer, LAYERS, "img/v2.tgz", null)).isEqualTo(gz2);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void aRestartedEngineReadsLayersAndKeepsAssigningToTheSameClusters() throws Exception {
        byte[] v1 = TestData.text(10, 1_000_000);
        byte[] gz1 = gzip(v1, 6);
        byte[] gz2 = gzip(edited(v1, 11, 3), 6);
        long afterRestart;
        try (TestEngine e = open(dir.resolve("one"), "high")) {
            put(e.coffer, LAYERS, "v1.tgz", gz1);
        }
        try (TestEngine e = open(dir.resolve("one"), "high")) {
            assertThat(get(e.coffer, LAYERS, "v1.tgz", null)).isEqualTo(gz1);
            long before = e.backendBytes();
            put(e.coffer, LAYERS, "v2.tgz", gz2);
            afterRestart = e.backendBytes() - before;
            assertThat(get(e.coffer, LAYERS, "v2.tgz", null)).isEqualTo(gz2);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
        long withoutRestart;
        try (TestEngine e = open(dir.resolve("two"), "high")) {
            put(e.coffer, LAYERS, "v1.tgz", gz1);
            long before = e.backendBytes();
            put(e.coffer, LAYERS, "v2.tgz", gz2);
            withoutRestart = e.backendBytes() - before;
        }
        // the journal gives the restarted engine the same clusters, so the same keys and the same dedup
        assertThat(afterRestart).isEqualTo(withoutRestart);
        assertThat(afterRestart).isLessThan(gz2.length / 2);
    }

    @Test
    void reindexRebuildsLayerObjectsFromTheBackend() throws Exception {
        byte[] gz = gzip(TestData.text(12, 500_000), 6);
        try (TestEngine e = open(dir, "high")) {
            put(e.coffer, LAYERS, "x.tgz", gz);
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.objects()).isEqualTo(1);
            assertThat(report.skippedBlobs()).isZero();
            assertThat(get(rebuilt, LAYERS, "x.tgz", null)).isEqualTo(gz);
            assertThat(rebuilt.headObject(LAYERS, "x.tgz").etag()).isEqualTo(TestData.md5Hex(gz));
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void basicModeKeepsTheFirstLayersOfAnImageWhole() throws Exception {
        try (TestEngine e = open(dir, "basic:1")) {
            put(e.coffer, LAYERS, "img/a", gzip(TestData.text(13, 200_000), 6));
            put(e.coffer, LAYERS, "img/b", gzip(TestData.text(14, 200_000), 6));
            put(e.coffer, LAYERS, "other/a", gzip(TestData.text(15, 200_000), 6));
            assertThat(manifest(e, LAYERS, "img/a").isLayer()).isFalse();
            assertThat(manifest(e, LAYERS, "img/b").isLayer()).isTrue();
            assertThat(manifest(e, LAYERS, "other/a").isLayer()).isFalse();
        }
    }

    @Test
    void flexibleModeDecodesALayerWhoseHuffmanTreeWasSeenBefore() throws Exception {
        byte[] gz = gzip(TestData.text(16, 200_000), 6);
        byte[] other = gzip(TestData.bytes(17, 200_000), 9);
        try (TestEngine e = open(dir, "flexible")) {
            put(e.coffer, LAYERS, "first", gz);
            put(e.coffer, LAYERS, "again", gz);
            put(e.coffer, LAYERS, "unlike", other);
            assertThat(manifest(e, LAYERS, "first").isLayer()).isFalse();
            assertThat(manifest(e, LAYERS, "again").isLayer()).isTrue();
            assertThat(manifest(e, LAYERS, "unlike").isLayer()).isFalse();
            assertThat(get(e.coffer, LAYERS, "again", null)).isEqualTo(gz);
        }
    }

    private static TestEngine open(Path dir, String mode) throws IOException {
        return open(dir, mode, true);
    }

    /** An engine whose layer bucket has {@code mode}, zlib recipes on or off, with both test buckets made. */
    private static TestEngine open(Path dir, String mode, boolean zlibRecipes) throws IOException {
        TestEngine e = TestEngine.open(dir, b -> b.layers(LayerModePolicy.parse(LAYERS + "=" + mode,
                LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE, LayerModePolicy.DEFAULT_THRESHOLD)
                .withZlibRecipes(zlibRecipes)));
        if (e.coffer.listBuckets("t").isEmpty()) {
            e.coffer.createBucket(LAYERS, "t");
            e.coffer.createBucket(PLAIN, "t");
        }
        return e;
    }

    /** {@code edits} edits spread over the text: a few bytes replaced, inserted or removed. */
    static byte[] edited(byte[] v1, long seed, int edits) {
        SplittableRandom r = new SplittableRandom(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream(v1.length + 1000);
        int step = v1.length / edits;
        for (int i = 0; i < edits; i++) {
            int from = i * step;
            int to = i == edits - 1 ? v1.length : from + step;
            int at = from + r.nextInt(step / 2);
            out.write(v1, from, at - from);
            byte[] insert = ("edit " + r.nextInt(1_000_000) + " ").getBytes();
            out.write(insert, 0, insert.length);
            int skip = r.nextInt(20);
            out.write(v1, at + skip, to - at - skip);
        }
        return out.toByteArray();
    }

    static byte[] gzip(byte[] data, int level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 64 << 10) {
            {
                def.setLevel(level);
            }
        }) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static ObjectInfo put(Coffer coffer, String bucket, String key, byte[] data) {
        return coffer.putObject(PutObjectRequest.of(bucket, key, data.length), new ByteArrayInputStream(data));
    }

    private static byte[] get(Coffer coffer, String bucket, String key, ByteRange range) throws IOException {
        try (ObjectContent c = coffer.getObject(bucket, key, range)) {
            return c.stream().readAllBytes();
        }
    }

    private static Manifest manifest(TestEngine e, String bucket, String key) throws Exception {
        var r = e.meta.object(bucket, key).orElseThrow();
        return StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
    }

    static long blobBytes(TestEngine e, String prefix) throws IOException {
        return e.blobs().stream().filter(b -> b.name().startsWith(prefix)).mapToLong(BlobInfo::size).sum();
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;


import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.coffer.sdk.checksum.ChecksumType;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Layer mode for multipart uploads: a gzip object completed from parts in a layer-mode bucket is re-encoded and
 * committed as a layer with the multipart ETag, its part sizes and part checksums; it reads back byte for byte, whole,
 * in ranges and part by part, survives reindex and passes fsck; a second version costs a fraction of what it costs in
 * an ordinary bucket; a non-gzip upload stays as it is; CopyObject keeps the layer; a crash between the re-encode and the commit leaves the upload
 * completable; a part copied from a layer is the layer's bytes.
 */
class LayerMultipartTest {
    private static final String LAYERS = "lay";
    private static final String PLAIN = "plain";
    private static final int PART = 128 << 10;

    @TempDir
    Path dir;

    @Test
    void gzipUploadBecomesALayerWithTheMultipartEtagAndReadsBackWholeInRangesAndByPart() throws Exception {
        byte[] gz = LayerModeTest.gzip(TestData.text(1, 1_000_000), 6);
        try (TestEngine e = open(dir)) {
            ObjectInfo done = upload(e.coffer, LAYERS, "img/l.tgz", gz, null);
            assertThat(done.etag()).isEqualTo(multipartEtag(gz)).endsWith("-" + parts(gz).size());
            Manifest m = manifest(e, LAYERS, "img/l.tgz");
            assertThat(m.isLayer()).isTrue();
            assertThat(m.partSizes()).containsExactlyElementsOf(parts(gz).stream().map(p -> (long) p.length).toList());
            assertThat(get(e.coffer, LAYERS, "img/l.tgz", null)).isEqualTo(gz);
            long[][] ranges = {{0, 0}, {PART - 5, PART + 5}, {100_000, 250_000}, {gz.length - 9, gz.length - 1}};
            for (long[] r : ranges) {
                assertThat(get(e.coffer, LAYERS, "img/l.tgz", ByteRange.of(r[0], r[1])))
                        .isEqualTo(Arrays.copyOfRange(gz, (int) r[0], (int) r[1] + 1));
            }
            List<byte[]> parts = parts(gz);
            for (int i = 0; i < parts.size(); i++) {
                try (ObjectContent c = e.coffer.getObjectPart(LAYERS, "img/l.tgz", i + 1)) {
                    assertThat(c.stream().readAllBytes()).isEqualTo(parts.get(i));
                }
            }
            ObjectInfo head = e.coffer.headObject(LAYERS, "img/l.tgz");
            assertThat(head.etag()).isEqualTo(done.etag());
            assertThat(head.size()).isEqualTo(gz.length);
            // the registry moves uploaded blobs with CopyObject: the copy is the same layer, no bytes move
            e.coffer.copyObject(CopySource.of(LAYERS, "img/l.tgz"), LAYERS, "moved.tgz");
            assertThat(manifest(e, LAYERS, "moved.tgz").isLayer()).isTrue();
            assertThat(manifest(e, LAYERS, "moved.tgz").distinctChunkIds()).isEqualTo(m.distinctChunkIds());
            assertThat(e.coffer.headObject(LAYERS, "moved.tgz").etag()).isEqualTo(done.etag());
            assertThat(get(e.coffer, LAYERS, "moved.tgz", null)).isEqualTo(gz);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void partChecksumsAreKeptAndTheLayerSurvivesReindex() throws Exception {
        byte[] gz = LayerModeTest.gzip(TestData.text(2, 700_000), 6);
        ChecksumAlgorithm crc = ChecksumAlgorithm.CRC32;
        List<String> partSums = parts(gz).stream().map(crc::of).toList();
        String etag;
        try (TestEngine e = open(dir)) {
            ObjectInfo done = upload(e.coffer, LAYERS, "c.tgz", gz, crc);
            etag = done.etag();
            assertThat(manifest(e, LAYERS, "c.tgz").isLayer()).isTrue();
            assertThat(done.partChecksums()).containsExactlyElementsOf(partSums);
            assertThat(e.coffer.headObject(LAYERS, "c.tgz").partChecksums()).containsExactlyElementsOf(partSums);
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            assertThat(rebuilt.reindex().objects()).isEqualTo(1);
            ObjectInfo info = rebuilt.headObject(LAYERS, "c.tgz");
            assertThat(info.etag()).isEqualTo(etag);
            assertThat(info.partChecksums()).containsExactlyElementsOf(partSums);
            assertThat(get(rebuilt, LAYERS, "c.tgz", null)).isEqualTo(gz);
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void nonGzipUploadAndGzipInAnOrdinaryBucketStayAsTheyAre() throws Exception {
        byte[] raw = TestData.bytes(3, 300_000);
        byte[] gz = LayerModeTest.gzip(TestData.text(4, 700_000), 6);
        try (TestEngine e = open(dir)) {
            upload(e.coffer, LAYERS, "raw.bin", raw, null);
            upload(e.coffer, PLAIN, "x.tgz", gz, null);
            assertThat(manifest(e, LAYERS, "raw.bin").isLayer()).isFalse();
            assertThat(manifest(e, PLAIN, "x.tgz").isLayer()).isFalse();
            assertThat(get(e.coffer, LAYERS, "raw.bin", null)).isEqualTo(raw);
            assertThat(get(e.coffer, PLAIN, "x.tgz", null)).isEqualTo(gz);
        }
    }

    @Test
    void secondVersionUploadedInPartsStoresAFractionOfWhatAnOrdinaryBucketStores() throws Exception {
        byte[] v1 = TestData.text(5, 2_000_000);
        byte[] gz1 = LayerModeTest.gzip(v1, 6);
        byte[] gz2 = LayerModeTest.gzip(LayerModeTest.edited(v1, 6, 10), 6);
        long layerCost;
        long plainCost;
        try (TestEngine e = open(dir.resolve("a"))) {
            upload(e.coffer, LAYERS, "img/v1.tgz", gz1, null);
            e.collectGarbage(); // the parts' chunks of a layer are garbage once it is committed
            long before = e.backendBytes();
            upload(e.coffer, LAYERS, "img/v2.tgz", gz2, null);
            e.collectGarbage();
            layerCost = e.backendBytes() - before;
            assertThat(get(e.coffer, LAYERS, "img/v2.tgz", null)).isEqualTo(gz2);
        }
        try (TestEngine e = open(dir.resolve("b"))) {
            upload(e.coffer, PLAIN, "img/v1.tgz", gz1, null);
            e.collectGarbage(); // measured as in the layer bucket
            long before = e.backendBytes();
            upload(e.coffer, PLAIN, "img/v2.tgz", gz2, null);
            e.collectGarbage();
            plainCost = e.backendBytes() - before;
        }
        System.out.printf("[layer-multipart] gzip %d bytes; second version adds %d bytes in layer mode, %d ordinary%n",
                gz2.length, layerCost, plainCost);
        assertThat(plainCost).isGreaterThan(gz2.length * 9L / 10);
        assertThat(layerCost).isLessThan(plainCost / 2);
    }

    /** The parts of a layer are collected; the same bytes uploaded again are then stored anew, not deduplicated. */
    @Test
    void theSamePartsUploadedAfterGcCollectedAnEarlierUploadsPartsAreStoredAgain() throws Exception {
        byte[] gz = LayerModeTest.gzip(TestData.text(10, 500_000), 6);
        try (TestEngine e = open(dir)) {
            upload(e.coffer, LAYERS, "first.tgz", gz, null);
            assertThat(e.collectGarbage().packsRetired()).isPositive();
            ObjectInfo again = upload(e.coffer, PLAIN, "again.tgz", gz, null);
            assertThat(again.etag()).isEqualTo(multipartEtag(gz));
            assertThat(get(e.coffer, PLAIN, "again.tgz", null)).isEqualTo(gz);
            assertThat(get(e.coffer, LAYERS, "first.tgz", null)).isEqualTo(gz);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void crashBetweenTheReencodeAndTheCommitLeavesTheUploadCompletable() throws Exception {
        byte[] gz = LayerModeTest.gzip(TestData.text(7, 700_000), 6);
        String uploadId;
        List<CompletedPart> completed = new ArrayList<>();
        try (TestEngine e = open(dir)) {
            uploadId = e.coffer.createMultipartUpload(LAYERS, "k.tgz");
            List<byte[]> parts = parts(gz);
            for (int i = 0; i < parts.size(); i++) {
                PartInfo p = e.coffer.uploadPart(LAYERS, "k.tgz", uploadId, i + 1, parts.get(i).length,
                        new ByteArrayInputStream(parts.get(i)));
                completed.add(new CompletedPart(i + 1, p.etag()));
            }
        }
        // the process "dies" in the metadata commit: nothing after the re-encode runs, no cleanup either
        CofferBuilder dying = Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(dyingOnCommit(JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))))
                .masterKey(MasterKey.loadOrCreate(dir.resolve("master.key")));
        try (Coffer c = configure(dying).build()) {
            assertThatThrownBy(() -> c.completeMultipartUpload(LAYERS, "k.tgz", uploadId, completed))
                    .isInstanceOf(Killed.class);
        }
        try (TestEngine e = open(dir)) {
            assertThat(e.coffer.listParts(LAYERS, "k.tgz", uploadId, 0, 100).parts()).hasSize(completed.size());
            ObjectInfo done = e.coffer.completeMultipartUpload(LAYERS, "k.tgz", uploadId, completed);
            assertThat(done.etag()).isEqualTo(multipartEtag(gz));
            assertThat(manifest(e, LAYERS, "k.tgz").isLayer()).isTrue();
            assertThat(get(e.coffer, LAYERS, "k.tgz", null)).isEqualTo(gz);
        }
    }

    @Test
    void aPartCopiedFromALayerIsTheLayersBytes() throws Exception {
        byte[] gz = LayerModeTest.gzip(TestData.text(8, 500_000), 6);
        byte[] tail = TestData.bytes(9, 1000);
        try (TestEngine e = open(dir)) {
            e.coffer.putObject(PutObjectRequest.of(LAYERS, "src.tgz", gz.length), new ByteArrayInputStream(gz));
            assertThat(manifest(e, LAYERS, "src.tgz").isLayer()).isTrue();
            String id = e.coffer.createMultipartUpload(PLAIN, "copy.bin");
            PartInfo p1 = e.coffer.uploadPartCopy(CopySource.of(LAYERS, "src.tgz"), PLAIN, "copy.bin", id, 1);
            PartInfo p2 = e.coffer.uploadPart(PLAIN, "copy.bin", id, 2, tail.length, new ByteArrayInputStream(tail));
            assertThat(p1.etag()).isEqualTo(TestData.md5Hex(gz));
            e.coffer.completeMultipartUpload(PLAIN, "copy.bin", id, List.of(new CompletedPart(1, p1.etag()),
                    new CompletedPart(2, p2.etag())));
            byte[] want = Arrays.copyOf(gz, gz.length + tail.length);
            System.arraycopy(tail, 0, want, gz.length, tail.length);
            assertThat(get(e.coffer, PLAIN, "copy.bin", null)).isEqualTo(want);
        }
    }

    /** What a killed process leaves: an error no code path catches. */
    static final class Killed extends Error {
        Killed() {
            super("killed in the metadata commit");
        }
    }

    private static MetadataStore dyingOnCommit(MetadataStore inner) {
        return (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
                new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("commitObject")) {
                        throw new Killed();
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                });
    }

    private static ObjectInfo upload(Coffer c, String bucket, String key, byte[] data, ChecksumAlgorithm sum) {
        String id = c.createMultipartUpload(bucket, key, null,
                sum == null ? null : new MultipartChecksum(sum, ChecksumType.COMPOSITE));
        List<CompletedPart> done = new ArrayList<>();
        List<byte[]> parts = parts(data);
        for (int i = 0; i < parts.size(); i++) {
            PartInfo p = c.uploadPart(bucket, key, id, i + 1, parts.get(i).length,
                    new ByteArrayInputStream(parts.get(i)));
            done.add(sum == null ? new CompletedPart(i + 1, p.etag())
                    : new CompletedPart(i + 1, p.etag(), Map.of(sum.name(), sum.of(parts.get(i)))));
        }
        return c.completeMultipartUpload(bucket, key, id, done);
    }

    private static List<byte[]> parts(byte[] data) {
        List<byte[]> parts = new ArrayList<>();
        for (int at = 0; at < data.length; at += PART) {
            parts.add(Arrays.copyOfRange(data, at, Math.min(data.length, at + PART)));
        }
        return parts;
    }

    private static String multipartEtag(byte[] data) throws Exception {
        MessageDigest md5OfMd5s = MessageDigest.getInstance("MD5");
        for (byte[] p : parts(data)) {
            md5OfMd5s.update(MessageDigest.getInstance("MD5").digest(p));
        }
        return HexFormat.of().formatHex(md5OfMd5s.digest()) + "-" + parts(data).size();
    }

    private static CofferBuilder configure(CofferBuilder b) {
        return b.minPartSize(PART).gcGrace(Duration.ZERO).layers(LayerModePolicy.parse(LAYERS + "=high",
                LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE, LayerModePolicy.DEFAULT_THRESHOLD));
    }

    private static TestEngine open(Path dir) throws IOException {
        TestEngine e = TestEngine.open(dir, LayerMultipartTest::configure);
        if (e.coffer.listBuckets("t").isEmpty()) {
            e.coffer.createBucket(LAYERS, "t");
            e.coffer.createBucket(PLAIN, "t");
        }
        return e;
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
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects up to the inline limit live inside their sealed manifest: no pack, no chunk, one manifest group on the backend
 * (shared with other small objects committed at the same time: ManifestGroupsTest),
 * and every other operation (range reads, copies, part copies, reindex, GC, fsck) treats them like any object.
 */
class InlineObjectTest {
    private static final int LIMIT = 16 << 10;

    @TempDir
    Path dir;

    @Test
    void smallObjectIsOneSealedManifestBlobAndNoPack() throws Exception {
        byte[] data = "inline plaintext that must never reach the backend ".repeat(40).getBytes(
                StandardCharsets.US_ASCII);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            ObjectInfo info = e.coffer.putObject(PutObjectRequest.of("bkt", "k", data.length),
                    new ByteArrayInputStream(data));

            assertThat(info.etag()).isEqualTo(TestData.md5Hex(data));
            assertThat(e.blobs()).extracting(BlobInfo::name).noneMatch(n -> n.startsWith(BackendLayout.PACKS));
            assertThat(e.blobs()).extracting(BlobInfo::name).filteredOn(n -> n.startsWith(BackendLayout.GROUPS))
                    .hasSize(1);
            for (BlobInfo b : e.blobs()) {
                String stored = new String(e.blobs.read(b.name(), 0, (int) b.size()), StandardCharsets.ISO_8859_1);
                assertThat(stored).doesNotContain("inline plaintext");
            }
            ObjectRecord r = e.meta.object("bkt", "k").orElseThrow();
            Manifest m = StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
            assertThat(m.isInline()).isTrue();
            assertThat(m.entries()).isEmpty();

            assertThat(read(e.coffer, "k", null)).isEqualTo(data);
            assertThat(read(e.coffer, "k", ByteRange.of(10, 19))).isEqualTo(Arrays.copyOfRange(data, 10, 20));
            assertThat(read(e.coffer, "k", ByteRange.suffix(7))).isEqualTo(
                    Arrays.copyOfRange(data, data.length - 7, data.length));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void theLimitIsInclusiveAndOneByteMoreIsChunked() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "at", LIMIT), TestData.stream(1, LIMIT));
            assertThat(packs(e)).isZero();
            e.coffer.putObject(PutObjectRequest.of("bkt", "over", LIMIT + 1), TestData.stream(2, LIMIT + 1));
            assertThat(packs(e)).isEqualTo(1);
            assertThat(read(e.coffer, "at", null)).isEqualTo(TestData.bytes(1, LIMIT));
            assertThat(read(e.coffer, "over", null)).isEqualTo(TestData.bytes(2, LIMIT + 1));
        }
    }

    @Test
    void unknownLengthBodiesAreInlinedOnlyWhenTheyEndWithinTheLimit() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "small", -1), TestData.stream(3, 5000));
            assertThat(packs(e)).isZero();
            int big = 3 * LIMIT + 17;
            ObjectInfo info = e.coffer.putObject(PutObjectRequest.of("bkt", "big", -1), TestData.stream(4, big));
            assertThat(packs(e)).isEqualTo(1);
            assertThat(info.size()).isEqualTo(big);
            assertThat(info.etag()).isEqualTo(TestData.md5Hex(TestData.bytes(4, big)));
            assertThat(read(e.coffer, "small", null)).isEqualTo(TestData.bytes(3, 5000));
            assertThat(read(e.coffer, "big", null)).isEqualTo(TestData.bytes(4, big));
        }
    }

    @Test
    void emptyObjectIsInlineAndReadsBackEmpty() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            ObjectInfo info = e.coffer.putObject(PutObjectRequest.of("bkt", "empty", 0), InputStream.nullInputStream());
            assertThat(info.etag()).isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
            assertThat(read(e.coffer, "empty", null)).isEmpty();
            assertThat(packs(e)).isZero();
        }
    }

    @Test
    void shortBodyIsIncompleteAndStoresNothing() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            assertThatThrownBy(() -> e.coffer.putObject(PutObjectRequest.of("bkt", "k", 100),
                    TestData.stream(5, 60)))
                    .isInstanceOfSatisfying(CofferException.class,
                            x -> assertThat(x.code()).isEqualTo(ErrorCode.INCOMPLETE_BODY));
            assertThat(e.meta.object("bkt", "k")).isEmpty();
            assertThat(e.blobs()).extracting(BlobInfo::name).allMatch(n -> !n.startsWith(BackendLayout.PACKS)
                    && !n.startsWith(BackendLayout.MANIFESTS) && !n.startsWith(BackendLayout.GROUPS));
        }
    }

    @Test
    void copiesAndPartCopiesOfAnInlineObjectReadBack() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(0))) {
            e.coffer.createBucket("bkt", "t");
            byte[] src = TestData.bytes(6, 9000);
            e.coffer.putObject(PutObjectRequest.of("bkt", "src", src.length), new ByteArrayInputStream(src));

            e.coffer.copyObject(CopySource.of("bkt", "src"), "bkt", "copy");
            e.coffer.deleteObject("bkt", "src");
            assertThat(read(e.coffer, "copy", null)).isEqualTo(src);

            String id = e.coffer.createMultipartUpload("bkt", "joined");
            var whole = e.coffer.uploadPartCopy(CopySource.of("bkt", "copy"), "bkt", "joined", id, 1);
            var range = e.coffer.uploadPartCopy(CopySource.of("bkt", "copy"), ByteRange.of(100, 199), "bkt",
                    "joined", id, 2);
            assertThat(whole.etag()).isEqualTo(TestData.md5Hex(src));
            e.coffer.completeMultipartUpload("bkt", "joined", id, List.of(new CompletedPart(1, whole.etag()),
                    new CompletedPart(2, range.etag())));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(src);
            expected.write(src, 100, 100);
            assertThat(read(e.coffer, "joined", null)).isEqualTo(expected.toByteArray());
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void reindexRebuildsInlineObjectsFromTheBackendAlone() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "small", 300), TestData.stream(7, 300));
            e.coffer.putObject(PutObjectRequest.of("bkt", "large", 200_000), TestData.stream(8, 200_000));
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            assertThat(rebuilt.reindex().objects()).isEqualTo(2);
            assertThat(read(rebuilt, "small", null)).isEqualTo(TestData.bytes(7, 300));
            assertThat(read(rebuilt, "large", null)).isEqualTo(TestData.bytes(8, 200_000));
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void inlineLimitZeroPacksEveryObject() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.inlineLimit(0))) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", 100), TestData.stream(9, 100));
            assertThat(packs(e)).isEqualTo(1);
            assertThat(read(e.coffer, "k", null)).isEqualTo(TestData.bytes(9, 100));
        }
    }

    private static long packs(TestEngine e) throws IOException {
        return e.blobs().stream().filter(b -> b.name().startsWith(BackendLayout.PACKS)).count();
    }

    private static byte[] read(Coffer coffer, String key, ByteRange range) throws IOException {
        try (ObjectContent c = coffer.getObject("bkt", key, range)) {
            return c.stream().readAllBytes();
        }
    }
}

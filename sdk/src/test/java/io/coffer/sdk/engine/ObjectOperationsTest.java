package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.DeleteResult;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.PartListing;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The S3 object model through the engine API: overwrite, delete, copy, list, multipart. */
class ObjectOperationsTest {
    @TempDir
    Path dir;
    private TestEngine e;

    @BeforeEach
    void open() throws IOException {
        e = TestEngine.open(dir, b -> b.minPartSize(1 << 20));
        e.coffer.createBucket("bkt", "t");
    }

    @AfterEach
    void close() {
        e.close();
    }

    @Test
    void overwriteReplacesAndReleasesTheOldVersion() throws Exception {
        put("k", 11, 3_000_000);
        String firstVersion = e.meta.object("bkt", "k").orElseThrow().versionId();
        ObjectInfo second = put("k", 12, 1_000_000);
        assertThat(read("k")).isEqualTo(TestData.bytes(12, 1_000_000));
        assertThat(e.coffer.headObject("bkt", "k").etag()).isEqualTo(second.etag());
        assertThat(e.blobs.head(BackendLayout.manifest(firstVersion))).isEmpty();
        assertThat(e.coffer.fsck(true).clean()).isTrue();
    }

    @Test
    void deleteRemovesTheObjectAndIsIdempotent() throws Exception {
        put("k", 1, 2_000_000);
        e.coffer.deleteObject("bkt", "k");
        e.coffer.deleteObject("bkt", "k");
        assertThatThrownBy(() -> e.coffer.headObject("bkt", "k")).isInstanceOfSatisfying(CofferException.class,
                ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_KEY));
        List<DeleteResult> many = e.coffer.deleteObjects("bkt", List.of("k", "x".repeat(1025)));
        assertThat(many.get(0).error()).isNull();
        assertThat(many.get(1).error().code()).isEqualTo(ErrorCode.KEY_TOO_LONG);
        assertThat(e.meta.stats().objects()).isZero();
        e.coffer.deleteBucket("bkt");
        assertThat(e.coffer.listBuckets()).isEmpty();
    }

    @Test
    void copySharesChunksAndStoresNoData() throws Exception {
        put("src", 2, 6_000_000);
        long before = e.backendBytes();
        ObjectInfo copy = e.coffer.copyObject(CopySource.of("bkt", "src"), "bkt", "dst",
                new ObjectAttributes("text/plain", Map.of("a", "bkt"), Map.of(), Map.of()), null);
        assertThat(e.backendBytes() - before).isLessThan(10_000);
        assertThat(copy.etag()).isEqualTo(e.coffer.headObject("bkt", "src").etag());
        assertThat(e.coffer.headObject("bkt", "dst").attributes().contentType()).isEqualTo("text/plain");
        e.coffer.deleteObject("bkt", "src");
        assertThat(read("dst")).isEqualTo(TestData.bytes(2, 6_000_000));
        assertThatThrownBy(() -> e.coffer.copyObject(new CopySource("bkt", "dst", "\"nope\"", null, null, null), "bkt",
                "x")).isInstanceOfSatisfying(CofferException.class,
                ex -> assertThat(ex.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED));
    }

    @Test
    void listingPagesThroughKeysAndCommonPrefixes() throws Exception {
        for (String k : List.of("a/1", "a/2", "a/b/3", "c", "d/4", "é", "z")) {
            put(k, k.hashCode(), 10);
        }
        ObjectPage top = e.coffer.listObjects("bkt", "", "/", 1000);
        assertThat(top.commonPrefixes()).containsExactly("a/", "d/");
        assertThat(top.objects()).extracting(ObjectSummary::key).containsExactly("c", "z", "é");
        ObjectPage under = e.coffer.listObjects("bkt", "a/", "/", 1000);
        assertThat(under.objects()).extracting(ObjectSummary::key).containsExactly("a/1", "a/2");
        assertThat(under.commonPrefixes()).containsExactly("a/b/");
        StringBuilder seen = new StringBuilder();
        String after = null;
        ObjectPage page;
        do {
            page = e.coffer.listObjects("bkt", "", null, after, 2);
            page.objects().forEach(o -> seen.append(o.key()).append(','));
            after = page.nextAfter();
        } while (page.truncated());
        assertThat(seen.toString()).isEqualTo("a/1,a/2,a/b/3,c,d/4,z,é,");
    }

    @Test
    void multipartJoinsPartsWithMd5OfMd5sEtag() throws Exception {
        int partSize = 1 << 20;
        byte[] all = TestData.bytes(9, 3 * partSize + 12345);
        String id = e.coffer.createMultipartUpload("bkt", "mp", ObjectAttributes.ofContentType("video/mp4"));
        MessageDigest md5s = MessageDigest.getInstance("MD5");
        for (int p = 0; p < 4; p++) {
            int from = p * partSize;
            int len = Math.min(partSize, all.length - from);
            byte[] part = Arrays.copyOfRange(all, from, from + len);
            String etag = e.coffer.uploadPart("bkt", "mp", id, p + 1, len, MessageDigest.getInstance("MD5")
                    .digest(part), new ByteArrayInputStream(part)).etag();
            md5s.update(HexFormat.of().parseHex(etag));
        }
        PartListing parts = e.coffer.listParts("bkt", "mp", id, 0, 2);
        assertThat(parts.parts()).hasSize(2);
        assertThat(parts.truncated()).isTrue();
        assertThat(e.coffer.listMultipartUploads("bkt", "", null, 10).uploads()).hasSize(1);
        List<CompletedPart> done = e.coffer.listParts("bkt", "mp", id, 0, 1000).parts().stream()
                .map(p -> new CompletedPart(p.partNumber(), "\"" + p.etag() + "\"")).toList();
        ObjectInfo info = e.coffer.completeMultipartUpload("bkt", "mp", id, done);
        assertThat(info.etag()).isEqualTo(HexFormat.of().formatHex(md5s.digest()) + "-4");
        assertThat(info.partCount()).isEqualTo(4);
        assertThat(read("mp")).isEqualTo(all);
        assertThat(e.coffer.headObject("bkt", "mp").attributes().contentType()).isEqualTo("video/mp4");
        try (ObjectContent c = e.coffer.getObjectPart("bkt", "mp", 4)) {
            assertThat(c.stream().readAllBytes()).isEqualTo(Arrays.copyOfRange(all, 3 * partSize,
                    all.length));
        }
        assertThat(e.coffer.listMultipartUploads("bkt", "", null, 10).uploads()).isEmpty();
        assertThat(e.coffer.fsck(true).clean()).isTrue();
    }

    @Test
    void aRepeatedCompleteAnswersWithTheObjectTheUploadProduced() throws Exception {
        String id = e.coffer.createMultipartUpload("bkt", "mp");
        String p1 = e.coffer.uploadPart("bkt", "mp", id, 1, 1 << 20, TestData.stream(1, 1 << 20)).etag();
        String p2 = e.coffer.uploadPart("bkt", "mp", id, 2, 1000, TestData.stream(2, 1000)).etag();
        List<CompletedPart> parts = List.of(new CompletedPart(1, "\"" + p1 + "\""), new CompletedPart(2, p2));
        ObjectInfo first = e.coffer.completeMultipartUpload("bkt", "mp", id, parts);

        // a client retrying after a lost response gets the same answer, and nothing changes
        ObjectInfo again = e.coffer.completeMultipartUpload("bkt", "mp", id, parts);
        assertThat(again.etag()).isEqualTo(first.etag());
        assertThat(again.size()).isEqualTo(first.size());
        assertThat(again.lastModified()).isEqualTo(first.lastModified());
        assertThat(read("mp")).hasSize((1 << 20) + 1000);

        // other parts than the completion named, or another key, are no retry of it
        assertNoSuchUpload(() -> e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(1, p1))));
        assertNoSuchUpload(() -> e.coffer.completeMultipartUpload("bkt", "mp", id,
                List.of(new CompletedPart(1, p1), new CompletedPart(2, "not-an-etag"))));
        assertNoSuchUpload(() -> e.coffer.completeMultipartUpload("bkt", "other", id, parts));
        // once the key holds another version, the upload is gone for good
        put("mp", 3, 10);
        assertNoSuchUpload(() -> e.coffer.completeMultipartUpload("bkt", "mp", id, parts));
        assertThat(read("mp")).isEqualTo(TestData.bytes(3, 10));
    }

    private static void assertNoSuchUpload(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(CofferException.class,
                ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_UPLOAD));
    }

    @Test
    void uploadPartCopyTakesARangeOfAnObject() throws Exception {
        put("src", 3, 4_000_000);
        String id = e.coffer.createMultipartUpload("bkt", "joined");
        var p1 = e.coffer.uploadPartCopy(CopySource.of("bkt", "src"), "bkt", "joined", id, 1);
        var p2 = e.coffer.uploadPartCopy(CopySource.of("bkt", "src"), ByteRange.of(1_000_000, 1_999_999), "bkt",
                "joined", id, 2);
        e.coffer.completeMultipartUpload("bkt", "joined", id, List.of(new CompletedPart(1, p1.etag()),
                new CompletedPart(2, p2.etag())));
        byte[] src = TestData.bytes(3, 4_000_000);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(src);
        expected.write(src, 1_000_000, 1_000_000);
        assertThat(read("joined")).isEqualTo(expected.toByteArray());
    }

    @Test
    void abortReleasesEverythingTheUploadHeld() throws Exception {
        String id = e.coffer.createMultipartUpload("bkt", "mp");
        e.coffer.uploadPart("bkt", "mp", id, 1, 3_000_000, TestData.stream(4, 3_000_000));
        e.coffer.abortMultipartUpload("bkt", "mp", id);
        assertThatThrownBy(() -> e.coffer.listParts("bkt", "mp", id, 0, 10)).isInstanceOfSatisfying(
                CofferException.class, ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_UPLOAD));
        e.coffer.deleteBucket("bkt");
    }

    private ObjectInfo put(String key, long seed, int size) {
        return e.coffer.putObject(PutObjectRequest.of("bkt", key, size), TestData.stream(seed, size));
    }

    private byte[] read(String key) throws IOException {
        try (ObjectContent c = e.coffer.getObject("bkt", key)) {
            return c.stream().readAllBytes();
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Objects stored under a customer key (SSE-C): readable only with it, deduplicated only under it. */
class CustomerKeyObjectsTest {
    private static final int SIZE = 2 << 20;
    private static final CustomerKey KEY_A = key(1);
    private static final CustomerKey KEY_B = key(2);

    @TempDir
    Path dir;

    @Test
    void objectReadsBackWholeByRangeAndByPartOnlyWithItsKey() throws Exception {
        byte[] data = TestData.bytes(1, SIZE);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", data, KEY_A);
            try (ObjectContent c = e.coffer.getObject("bkt", "k", null, null, i -> { }, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
            try (ObjectContent c = e.coffer.getObject("bkt", "k", null, ByteRange.of(1000, 1_999_999), i -> { },
                    KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(Arrays.copyOfRange(data, 1000, 2_000_000));
            }
            try (ObjectContent c = e.coffer.getObjectPart("bkt", "k", null, 1, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
            assertThat(e.coffer.headObject("bkt", "k", null, KEY_A).size()).isEqualTo(SIZE);
            assertThat(e.coffer.headObject("bkt", "k", null, KEY_A).etag())
                    .isEqualTo(e.coffer.headObject("bkt", "k").etag());
        }
    }

    @Test
    void missingKeyIsInvalidRequestAndAnotherKeyIsAccessDenied() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", TestData.bytes(2, 5000), KEY_A);
            put(e.coffer, "plain", TestData.bytes(2, 5000), null);
            assertCode(() -> e.coffer.getObject("bkt", "k"), ErrorCode.INVALID_REQUEST);
            assertCode(() -> e.coffer.getObjectPart("bkt", "k", 1), ErrorCode.INVALID_REQUEST);
            assertCode(() -> e.coffer.headObject("bkt", "k", null, null), ErrorCode.INVALID_REQUEST);
            assertCode(() -> e.coffer.getObject("bkt", "k", null, null, i -> { }, KEY_B), ErrorCode.ACCESS_DENIED);
            assertCode(() -> e.coffer.headObject("bkt", "k", null, KEY_B), ErrorCode.ACCESS_DENIED);
            // a key given for an object stored under none
            assertCode(() -> e.coffer.headObject("bkt", "plain", null, KEY_A), ErrorCode.INVALID_REQUEST);
            // nor can a copy or a part copy take its chunks without the key
            assertCode(() -> e.coffer.copyObject(CopySource.of("bkt", "k"), "bkt", "copy"),
                    ErrorCode.INVALID_REQUEST);
            String upload = e.coffer.createMultipartUpload("bkt", "mp");
            assertCode(() -> e.coffer.uploadPartCopy(CopySource.of("bkt", "k"), "bkt", "mp", upload, 1),
                    ErrorCode.INVALID_REQUEST);
        }
    }

    @Test
    void equalDataDeduplicatesUnderTheSameKeyOnly() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            KeyedObjectChecks.assertDeduplicatesUnderTheSameKeyOnly(e, TestData.bytes(3, SIZE), KEY_A, KEY_B,
                    (key, data, k) -> put(e.coffer, key, data, k));
        }
    }

    @Test
    void manifestKeepsNeitherTheKeyNorUsableChunkKeysNorChunkHashes() throws Exception {
        byte[] data = TestData.bytes(4, SIZE);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", data, KEY_A);
            Manifest m = manifest(e, "k");
            assertThat(m.isInline()).isFalse();
            String digest = m.attributes().headers().get(CustomerKey.DIGEST_HEADER);
            assertThat(digest).isNotNull().doesNotContain(KEY_A.md5Base64());
            assertThat(m.attributes().headers().values()).noneMatch(v -> v.contains(
                    java.util.Base64.getEncoder().encodeToString(KEY_A.rawBytes())));
            ManifestEntry first = m.entries().get(0);
            byte[] firstChunkHash = MessageDigest.getInstance("SHA-256").digest(Arrays.copyOf(data,
                    first.length()));
            assertThat(first.hash()).isNotEqualTo(firstChunkHash);
            ManifestEntry unwrapped = new CustomerKeyWrap(KEY_A).wrap(m.entries()).get(0);
            assertThat(unwrapped.hash()).isEqualTo(firstChunkHash);
            assertThat(first.key()).isNotEqualTo(unwrapped.key());
        }
    }

    @Test
    void smallObjectIsChunkedNotInlined() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "small", TestData.bytes(5, 100), KEY_A);
            assertThat(manifest(e, "small").isInline()).isFalse();
            try (ObjectContent c = e.coffer.getObject("bkt", "small", null, null, i -> { }, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(5, 100));
            }
        }
    }

    @Test
    void fsckGcTagsAndReindexWorkWithoutTheKey() throws Exception {
        byte[] data = TestData.bytes(6, SIZE);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", data, KEY_A);
            put(e.coffer, "gone", TestData.bytes(7, SIZE), null);
            e.coffer.deleteObject("bkt", "gone");
            e.coffer.putObjectTags("bkt", "k", Map.of("team", "x"));
            FsckReport report = e.coffer.fsck(true);
            assertThat(report.damaged()).isEmpty();
            e.coffer.collectGarbage();
            assertThat(e.coffer.fsck(false).clean()).isTrue();
            try (ObjectContent c = e.coffer.getObject("bkt", "k", null, null, i -> { }, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            assertCode(() -> rebuilt.getObject("bkt", "k"), ErrorCode.INVALID_REQUEST);
            assertCode(() -> rebuilt.headObject("bkt", "k", null, KEY_B), ErrorCode.ACCESS_DENIED);
            assertThat(rebuilt.headObject("bkt", "k", null, KEY_A).attributes().tags()).containsEntry("team", "x");
            try (ObjectContent c = rebuilt.getObject("bkt", "k", null, null, i -> { }, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
        }
    }

    @Test
    void multipartUploadTakesEveryPartUnderTheUploadsKeyOnly() throws Exception {
        byte[] one = TestData.bytes(8, (1 << 20) + 5);
        byte[] two = TestData.bytes(9, 70_000);
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(1 << 20))) {
            Bucket bkt = e.coffer.createBucket("bkt", "t");
            String upload = e.coffer.createMultipartUpload(bkt, "mp", null, null, KEY_A);
            String etag1 = e.coffer.uploadPart(bkt, "mp", upload, 1, one.length, null, new ByteArrayInputStream(one),
                    KEY_A).etag();
            assertCode(() -> e.coffer.uploadPart(bkt, "mp", upload, 2, two.length, null,
                    new ByteArrayInputStream(two), KEY_B), ErrorCode.INVALID_REQUEST);
            assertCode(() -> e.coffer.uploadPart(bkt, "mp", upload, 2, two.length, null,
                    new ByteArrayInputStream(two), null), ErrorCode.INVALID_REQUEST);
            put(e.coffer, "plain", two, null);
            assertCode(() -> e.coffer.uploadPartCopy(CopySource.of("bkt", "plain"), "bkt", "mp", upload, 2),
                    ErrorCode.INVALID_REQUEST);
            String etag2 = e.coffer.uploadPart(bkt, "mp", upload, 2, two.length, null, new ByteArrayInputStream(two),
                    KEY_A).etag();
            e.coffer.completeMultipartUpload("bkt", "mp", upload, List.of(new CompletedPart(1, etag1),
                    new CompletedPart(2, etag2)));
            assertCode(() -> e.coffer.getObject("bkt", "mp"), ErrorCode.INVALID_REQUEST);
            byte[] whole = new byte[one.length + two.length];
            System.arraycopy(one, 0, whole, 0, one.length);
            System.arraycopy(two, 0, whole, one.length, two.length);
            try (ObjectContent c = e.coffer.getObject("bkt", "mp", null, null, i -> { }, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(whole);
            }
            try (ObjectContent c = e.coffer.getObjectPart("bkt", "mp", null, 2, KEY_A)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(two);
            }
            // a part of an upload under no key takes none
            String plainUpload = e.coffer.createMultipartUpload("bkt", "mp2");
            assertCode(() -> e.coffer.uploadPart(bkt, "mp2", plainUpload, 1, two.length, null,
                    new ByteArrayInputStream(two), KEY_A), ErrorCode.INVALID_REQUEST);
            assertThat(e.coffer.fsck(true).damaged()).isEmpty();
        }
    }

    private static void put(Coffer c, String key, byte[] data, CustomerKey ck) {
        c.putObject(PutObjectRequest.of("bkt", key, data.length).withCustomerKey(ck), new ByteArrayInputStream(data));
    }

    private static Manifest manifest(TestEngine e, String key) throws Exception {
        return KeyedObjectChecks.manifest(e, key);
    }

    private static void assertCode(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(CofferException.class,
                ex -> assertThat(ex.code()).isEqualTo(code));
    }

    private static CustomerKey key(int seed) {
        byte[] b = new byte[CustomerKey.LENGTH];
        Arrays.fill(b, (byte) seed);
        return CustomerKey.of(b);
    }
}

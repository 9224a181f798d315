package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectKeyResolver;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects under a keyring key (SSE-KMS): stored as under the key's derived customer key, with the key id in the sealed
 * attributes, so a read finds its key by the id alone; dedup only under the same keyring key; reindex, fsck and gc
 * need no keyring.
 */
class KmsKeyObjectsTest {
    private static final int SIZE = 2 << 20;
    private static final KmsKey KEY_A = key("key-a", 1);
    private static final KmsKey KEY_B = key("key-b", 2);
    /** The keyring of these tests: key-a and key-b. */
    private static final ObjectKeyResolver KEYRING = attributes -> {
        String id = KmsKey.keyIdOf(attributes);
        if (id == null) {
            return null;
        }
        return switch (id) {
            case "key-a" -> KEY_A.objectKey();
            case "key-b" -> KEY_B.objectKey();
            default -> throw CofferException.of(ErrorCode.ACCESS_DENIED, "no key " + id);
        };
    };

    @TempDir
    Path dir;

    @Test
    void objectReadsBackByTheKeyIdItsAttributesName() throws Exception {
        byte[] data = TestData.bytes(11, SIZE);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", data, KEY_A);
            assertThat(KmsKey.keyIdOf(e.coffer.headObject("bkt", "k").attributes())).isEqualTo("key-a");
            try (ObjectContent c = e.coffer.getObjectKeyed("bkt", "k", null, null, i -> { }, KEYRING)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
            try (ObjectContent c = e.coffer.getObjectPartKeyed("bkt", "k", null, 1, KEYRING)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
            assertThat(e.coffer.headObjectKeyed("bkt", "k", null, KEYRING).size()).isEqualTo(SIZE);
            // without the key, or with another keyring key's, nothing opens
            assertCode(() -> e.coffer.getObject("bkt", "k"), ErrorCode.INVALID_REQUEST);
            assertCode(() -> e.coffer.getObject("bkt", "k", null, null, i -> { }, KEY_B.objectKey()),
                    ErrorCode.ACCESS_DENIED);
        }
    }

    @Test
    void derivedObjectKeyIsNotTheKeyringKeyAndDependsOnIt() {
        byte[] raw = new byte[KmsKey.LENGTH];
        Arrays.fill(raw, (byte) 1);
        assertThat(KEY_A.objectKey()).isNotEqualTo(CustomerKey.of(raw));
        assertThat(KEY_A.objectKey()).isNotEqualTo(KEY_B.objectKey());
        assertThat(KEY_A.objectKey()).isEqualTo(key("another-id", 1).objectKey());
        assertThat(KEY_A.toString()).doesNotContain(java.util.Base64.getEncoder().encodeToString(raw));
    }

    @Test
    void equalDataDeduplicatesUnderTheSameKeyringKeyOnly() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            KeyedObjectChecks.assertDeduplicatesUnderTheSameKeyOnly(e, TestData.bytes(12, SIZE), KEY_A, KEY_B,
                    (key, data, k) -> put(e.coffer, key, data, k));
        }
    }

    @Test
    void multipartPartsTakeTheUploadsKeyringKeyByItsAttributes() throws Exception {
        byte[] one = TestData.bytes(13, (1 << 20) + 5);
        byte[] two = TestData.bytes(14, 70_000);
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(1 << 20))) {
            Bucket bkt = e.coffer.createBucket("bkt", "t");
            String upload = e.coffer.createMultipartUpload(bkt, "mp", KEY_A.stamp(ObjectAttributes.EMPTY, null, false),
                    null, KEY_A.objectKey());
            String etag1 = e.coffer.uploadPartKeyed(bkt, "mp", upload, 1, one.length, null,
                    new ByteArrayInputStream(one), KEYRING).etag();
            String etag2 = e.coffer.uploadPartKeyed(bkt, "mp", upload, 2, two.length, null,
                    new ByteArrayInputStream(two), KEYRING).etag();
            assertCode(() -> e.coffer.uploadPart(bkt, "mp", upload, 3, two.length, null,
                    new ByteArrayInputStream(two), KEY_B.objectKey()), ErrorCode.INVALID_REQUEST);
            e.coffer.completeMultipartUpload("bkt", "mp", upload, List.of(new CompletedPart(1, etag1),
                    new CompletedPart(2, etag2)));
            byte[] whole = new byte[one.length + two.length];
            System.arraycopy(one, 0, whole, 0, one.length);
            System.arraycopy(two, 0, whole, one.length, two.length);
            assertThat(KmsKey.keyIdOf(e.coffer.headObject("bkt", "mp").attributes())).isEqualTo("key-a");
            try (ObjectContent c = e.coffer.getObjectKeyed("bkt", "mp", null, null, i -> { }, KEYRING)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(whole);
            }
        }
    }

    @Test
    void reindexFsckAndGcKeepTheKeyIdWithoutTheKeyring() throws Exception {
        byte[] data = TestData.bytes(15, SIZE);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", data, KEY_B, "eyJhIjoiYiJ9");
            put(e.coffer, "gone", TestData.bytes(16, SIZE), KEY_B);
            e.coffer.deleteObject("bkt", "gone");
            e.coffer.putObjectTags("bkt", "k", Map.of("team", "x"));
            assertThat(manifest(e, "k").attributes().headers()).containsEntry(KmsKey.KEY_ID_HEADER, "key-b")
                    .containsEntry(KmsKey.CONTEXT_HEADER, "eyJhIjoiYiJ9");
            // no keyring is given to any of these
            assertThat(e.coffer.fsck(true).damaged()).isEmpty();
            e.coffer.collectGarbage();
            assertThat(e.coffer.fsck(false).clean()).isTrue();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            ObjectAttributes a = rebuilt.headObject("bkt", "k").attributes();
            assertThat(KmsKey.keyIdOf(a)).isEqualTo("key-b");
            assertThat(a.headers()).containsEntry(KmsKey.CONTEXT_HEADER, "eyJhIjoiYiJ9");
            assertThat(a.tags()).containsEntry("team", "x");
            try (ObjectContent c = rebuilt.getObjectKeyed("bkt", "k", null, null, i -> { }, KEYRING)) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
        }
    }

    @Test
    void kmsDataKeyIsStampedInTheSealedManifestAndSurvivesReindexAndUnstamp() throws Exception {
        byte[] raw = new byte[KmsKey.LENGTH];
        Arrays.fill(raw, (byte) 7);
        KmsKey dataKey = KmsKey.ofDataKey("arn:aws:kms:us-east-1:123456789012:key/k1", raw, "d3JhcHBlZA==");
        assertThat(dataKey.toString()).doesNotContain("d3JhcHBlZA").contains("redacted");
        assertThat(dataKey.objectKey()).isEqualTo(KmsKey.of("other", raw).objectKey());
        assertThatThrownBy(() -> KmsKey.ofDataKey("k1", raw, "")).isInstanceOf(IllegalArgumentException.class);
        byte[] data = TestData.bytes(17, SIZE);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", data, dataKey);
            assertThat(manifest(e, "k").attributes().headers()).containsEntry(KmsKey.DATA_KEY_HEADER, "d3JhcHBlZA==");
            ObjectAttributes a = e.coffer.headObject("bkt", "k").attributes();
            assertThat(KmsKey.wrappedDataKeyOf(a)).isEqualTo("d3JhcHBlZA==");
            assertThat(KmsKey.unstamp(a).headers()).doesNotContainKey(KmsKey.DATA_KEY_HEADER);
            assertThat(KmsKey.wrappedDataKeyOf(KEY_A.stamp(a, null, false))).isNull();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            ObjectAttributes a = rebuilt.headObject("bkt", "k").attributes();
            assertThat(KmsKey.wrappedDataKeyOf(a)).isEqualTo("d3JhcHBlZA==");
            try (ObjectContent c = rebuilt.getObjectKeyed("bkt", "k", null, null, i -> { },
                    attributes -> dataKey.objectKey())) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
        }
    }

    private static void put(Coffer c, String key, byte[] data, KmsKey kms) {
        put(c, key, data, kms, null);
    }

    private static void put(Coffer c, String key, byte[] data, KmsKey kms, String context) {
        ObjectAttributes attributes = kms == null ? ObjectAttributes.EMPTY
                : kms.stamp(ObjectAttributes.EMPTY, context, false);
        c.putObject(new PutObjectRequest("bkt", key, data.length, attributes, null, null, null, null,
                kms == null ? null : kms.objectKey()), new ByteArrayInputStream(data));
    }

    private static Manifest manifest(TestEngine e, String key) throws Exception {
        return KeyedObjectChecks.manifest(e, key);
    }

    private static void assertCode(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(CofferException.class,
                ex -> assertThat(ex.code()).isEqualTo(code));
    }

    private static KmsKey key(String id, int seed) {
        byte[] b = new byte[KmsKey.LENGTH];
        Arrays.fill(b, (byte) seed);
        return KmsKey.of(id, b);
    }
}

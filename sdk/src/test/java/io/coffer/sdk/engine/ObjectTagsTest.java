package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Object tags live in the sealed manifest (set on PUT, on multipart completion and on copy) and, once replaced, in the
 * version's attribute record: replaced without touching bytes, ETag or Last-Modified, checked against S3's limits, and
 * rebuilt by reindex from the backend alone.
 */
class ObjectTagsTest {
    static final ObjectAttributes TAGGED = ObjectAttributes.ofContentType("text/plain")
            .withTags(Map.of("project", "coffer", "tier", "gold"));

    @TempDir
    Path dir;

    @Test
    void tagsSetOnWritesAndReplacedInPlaceSurviveReindex() throws Exception {
        ObjectInfo before;
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(1 << 20))) {
            Coffer c = e.coffer;
            c.createBucket("tags", "alice");
            c.putObject(PutObjectRequest.of("tags", "small", 100).withAttributes(TAGGED), TestData.stream(1, 100));
            c.putObject(PutObjectRequest.of("tags", "large", 300_000).withAttributes(TAGGED),
                    TestData.stream(2, 300_000));
            assertThat(c.headObject("tags", "small").attributes().tags()).containsEntry("project", "coffer").hasSize(2);

            before = c.headObject("tags", "large");
            c.putObjectTags("tags", "large", Map.of("state", "archived"));
            ObjectInfo after = c.headObject("tags", "large");
            assertThat(after.attributes().tags()).containsExactlyEntriesOf(Map.of("state", "archived"));
            assertThat(after.etag()).isEqualTo(before.etag());
            assertThat(after.lastModified()).isEqualTo(before.lastModified());
            assertThat(after.attributes().contentType()).isEqualTo("text/plain");
            c.putObjectTags("tags", "small", Map.of());
            assertThat(c.headObject("tags", "small").attributes().tags()).isEmpty();

            String upload = c.createMultipartUpload("tags", "multi", TAGGED, null);
            String etag = c.uploadPart("tags", "multi", upload, 1, 1000, null, TestData.stream(3, 1000)).etag();
            c.completeMultipartUpload("tags", "multi", upload, List.of(new CompletedPart(1, etag)));
            assertThat(c.headObject("tags", "multi").attributes().tags()).isEqualTo(TAGGED.tags());

            c.copyObject(CopySource.of("tags", "multi"), "tags", "copied");
            c.copyObject(CopySource.of("tags", "multi"), "tags", "retagged", null, Map.of("copy", "yes"),
                    Precondition.NONE);
            c.copyObject(CopySource.of("tags", "multi"), "tags", "replaced-metadata",
                    ObjectAttributes.ofContentType("image/png"), null, Precondition.NONE);
            assertThat(c.headObject("tags", "copied").attributes().tags()).isEqualTo(TAGGED.tags());
            assertThat(c.headObject("tags", "retagged").attributes().tags()).isEqualTo(Map.of("copy", "yes"));
            assertThat(c.headObject("tags", "replaced-metadata").attributes().tags()).isEqualTo(TAGGED.tags());
            assertThat(c.fsck(true).clean()).isTrue();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            assertThat(rebuilt.headObject("tags", "large").attributes().tags()).isEqualTo(Map.of("state", "archived"));
            assertThat(rebuilt.headObject("tags", "large").lastModified()).isEqualTo(before.lastModified());
            assertThat(rebuilt.headObject("tags", "small").attributes().tags()).isEmpty();
            assertThat(rebuilt.headObject("tags", "multi").attributes().tags()).isEqualTo(TAGGED.tags());
            assertThat(rebuilt.headObject("tags", "retagged").attributes().tags()).isEqualTo(Map.of("copy", "yes"));
            try (ObjectContent content = rebuilt.getObject("tags", "large")) {
                assertThat(content.stream().readAllBytes()).isEqualTo(TestData.bytes(2, 300_000));
            }
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void tagSetsBreakingS3sRulesAreInvalidTagAndChangeNothing() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            c.createBucket("tags", "alice");
            c.putObject(PutObjectRequest.of("tags", "k", 10).withAttributes(TAGGED), TestData.stream(1, 10));
            Map<String, String> eleven = new java.util.TreeMap<>();
            for (int i = 0; i < 11; i++) {
                eleven.put("k" + i, "v");
            }
            for (Map<String, String> bad : List.of(eleven, Map.of("k".repeat(129), "v"),
                    Map.of("k", "v".repeat(257)), Map.of("aws:reserved", "v"), Map.of("bad<char", "v"),
                    Map.of("", "v"))) {
                assertThatThrownBy(() -> c.putObjectTags("tags", "k", bad)).isInstanceOfSatisfying(
                        CofferException.class, ex -> assertThat(ex.code()).isEqualTo(ErrorCode.INVALID_TAG));
            }
            // the limits themselves pass: 10 tags, a 128-unit key, a 256-unit value, the allowed punctuation
            Map<String, String> ten = new java.util.TreeMap<>(eleven);
            ten.remove("k10");
            c.putObjectTags("tags", "k", ten);
            c.putObjectTags("tags", "k", Map.of("k".repeat(128), "v".repeat(256), "a b+-=._:/@", "ü 1"));
            assertThat(c.headObject("tags", "k").attributes().tags()).hasSize(2);
            assertThatThrownBy(() -> c.putObjectTags("tags", "missing", Map.of("a", "b")))
                    .isInstanceOfSatisfying(CofferException.class,
                            ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_KEY));
        }
    }
}

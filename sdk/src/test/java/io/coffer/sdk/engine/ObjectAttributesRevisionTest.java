package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * reviseObjectAttributes (how the gateway stores an object's ACL among its stored headers) changes the version in
 * place as putObjectTags does: bytes, ETag and time stay, and reindex restores the revised attributes from the backend.
 */
class ObjectAttributesRevisionTest {
    @TempDir
    Path dir;

    static ObjectAttributes withHeader(ObjectAttributes a, String name, String value) {
        Map<String, String> h = new TreeMap<>(a.headers());
        h.put(name, value);
        return new ObjectAttributes(a.contentType(), a.userMetadata(), h, a.checksums(), a.tags());
    }

    @Test
    void revisedAttributesKeepBytesEtagAndTimeAndSurviveReindex() throws Exception {
        ObjectInfo before;
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket bucket = c.createBucket("revise", "alice");
            c.putObject(PutObjectRequest.of("revise", "k", 5000).withAttributes(
                    ObjectAttributes.ofContentType("text/plain").withTags(Map.of("t", "1"))), TestData.stream(4, 5000));
            before = c.headObject("revise", "k");
            c.reviseObjectAttributes(bucket, "k", a -> withHeader(a, "x-amz-acl", "OWNER:FULL_CONTROL,ALL_USERS:READ"));
            ObjectInfo after = c.headObject("revise", "k");
            assertThat(after.attributes().headers()).containsEntry("x-amz-acl", "OWNER:FULL_CONTROL,ALL_USERS:READ");
            assertThat(after.attributes().tags()).isEqualTo(Map.of("t", "1"));
            assertThat(after.attributes().contentType()).isEqualTo("text/plain");
            assertThat(after.etag()).isEqualTo(before.etag());
            assertThat(after.lastModified()).isEqualTo(before.lastModified());
            assertThatThrownBy(() -> c.reviseObjectAttributes(bucket, "missing", a -> a))
                    .isInstanceOfSatisfying(CofferException.class,
                            ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_KEY));
            assertThat(c.fsck(true).clean()).isTrue();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            ObjectInfo info = rebuilt.headObject("revise", "k");
            assertThat(info.attributes().headers()).containsEntry("x-amz-acl", "OWNER:FULL_CONTROL,ALL_USERS:READ");
            assertThat(info.lastModified()).isEqualTo(before.lastModified());
            try (ObjectContent content = rebuilt.getObject("revise", "k")) {
                assertThat(content.stream().readAllBytes()).isEqualTo(TestData.bytes(4, 5000));
            }
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket's configuration documents (the gateway's tagging and CORS) are kept in the metadata store and in the
 * bucket's sealed record, so reindex restores them; removing one or deleting the bucket removes them.
 */
class BucketConfigsTest {
    static final byte[] TAGS = "tags document".getBytes(StandardCharsets.UTF_8);
    static final byte[] CORS = "cors document".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void documentsAreSetReplacedRemovedAndRestoredByReindex() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("configured", "alice");
            Bucket plain = c.createBucket("plain", "alice");
            assertThat(c.bucketConfig(b, "tagging")).isEmpty();
            c.putBucketConfig(b, "tagging", "old".getBytes(StandardCharsets.UTF_8));
            c.putBucketConfig(b, "tagging", TAGS);
            c.putBucketConfig(b, "cors", CORS);
            c.putBucketConfig(b, "gone", CORS);
            c.putBucketConfig(b, "gone", null);
            assertThat(c.bucketConfig(b, "tagging")).contains(TAGS);
            assertThat(c.bucketConfig(b, "cors")).contains(CORS);
            assertThat(c.bucketConfig(b, "gone")).isEmpty();
            assertThat(c.bucketConfig(plain, "cors")).isEmpty();
            assertThat(c.fsck(true).clean()).isTrue();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            Bucket b = rebuilt.headBucket("configured");
            assertThat(rebuilt.bucketConfig(b, "tagging")).contains(TAGS);
            assertThat(rebuilt.bucketConfig(b, "cors")).contains(CORS);
            assertThat(rebuilt.bucketConfig(b, "gone")).isEmpty();
            assertThat(rebuilt.bucketConfig(rebuilt.headBucket("plain"), "tagging")).isEmpty();
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void aDeletedBucketTakesItsDocumentsAlong() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("short-lived", "alice");
            c.putBucketConfig(b, "cors", CORS);
            c.deleteBucket("short-lived");
            assertThatThrownBy(() -> c.putBucketConfig(b, "cors", CORS)).isInstanceOfSatisfying(
                    CofferException.class, ex -> assertThat(ex.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
            Bucket again = c.createBucket("short-lived", "alice");
            assertThat(c.bucketConfig(again, "cors")).isEmpty();
        }
    }
}

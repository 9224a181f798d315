package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.CountingMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a caller has read, the engine does not read again. */
class MetadataReadsTest {
    @TempDir
    Path dir;
    private CountingMetadataStore meta;
    private Coffer coffer;

    @BeforeEach
    void open() {
        meta = new CountingMetadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db")));
        coffer = Coffer.builder().directory(dir).metadataStore(meta.store()).build();
        coffer.createBucket("bkt", "t", null);
        coffer.putObject(PutObjectRequest.of("bkt", "k", 1000), TestData.stream(1, 1000));
    }

    @AfterEach
    void close() {
        coffer.close();
    }

    @Test
    void aPutGivenItsBucketRecordDoesNotReadItAgain() {
        Bucket bucket = coffer.headBucket("bkt");
        meta.reset();
        coffer.putObject(PutObjectRequest.of("bkt", "k2", 10).withBucketRecord(bucket), TestData.stream(2, 10));
        assertThat(meta.calls("bucket")).isZero();
        coffer.putObject(PutObjectRequest.of("bkt", "k3", 10), TestData.stream(3, 10));
        assertThat(meta.calls("bucket")).isEqualTo(1);
        assertThat(coffer.headObject("bkt", "k2").size()).isEqualTo(10);
    }

    @Test
    void aCheckedGetReadsTheObjectOnce() throws Exception {
        List<ObjectInfo> checked = new ArrayList<>();
        meta.reset();
        try (ObjectContent c = coffer.getObject("bkt", "k", ByteRange.of(10, 19), checked::add)) {
            assertThat(c.stream().readAllBytes()).hasSize(10);
            assertThat(checked).containsExactly(c.info());
        }
        assertThat(meta.calls("object")).isEqualTo(1);
        meta.reset();
        assertThatThrownBy(() -> coffer.getObject("bkt", "k", null, info -> {
            throw new IllegalStateException("precondition");
        })).hasMessage("precondition");
        assertThat(meta.calls("object")).isEqualTo(1);
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backend alone is enough to rebuild the metadata store. */
class ReindexTest {
    @TempDir
    Path dir;

    @Test
    void rebuiltStoreListsAndReadsExactlyTheCommittedObjects() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(1 << 20))) {
            e.coffer.createBucket("photos", "alice", "eu-west-1");
            e.coffer.createBucket("empty", "bob");
            e.coffer.putObject(PutObjectRequest.of("photos", "a.jpg", 2_000_000).withAttributes(
                    new ObjectAttributes("image/jpeg", Map.of("camera", "x"), Map.of(), Map.of())),
                    TestData.stream(1, 2_000_000));
            e.coffer.putObject(PutObjectRequest.of("photos", "b.jpg", 300), TestData.stream(2, 300));
            e.coffer.putObject(PutObjectRequest.of("photos", "b.jpg", 400), TestData.stream(3, 400));
            e.coffer.putObject(PutObjectRequest.of("photos", "gone", 400), TestData.stream(4, 400));
            e.coffer.deleteObject("photos", "gone");
            String id = e.coffer.createMultipartUpload("photos", "big");
            String etag = e.coffer.uploadPart("photos", "big", id, 1, 1_500_000,
                    TestData.stream(5, 1_500_000)).etag();
            e.coffer.completeMultipartUpload("photos", "big", id, List.of(new CompletedPart(1, etag)));
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.buckets()).isEqualTo(2);
            assertThat(report.objects()).isEqualTo(3);
            assertThat(report.skippedBlobs()).isZero();
            assertThat(rebuilt.listBuckets("alice")).extracting(b -> b.name() + "@" + b.region())
                    .containsExactly("photos@eu-west-1");
            assertThat(rebuilt.listObjects("photos", "", null, 100).objects()).extracting(ObjectSummary::key)
                    .containsExactly("a.jpg", "b.jpg", "big");
            assertThat(rebuilt.headObject("photos", "a.jpg").attributes().userMetadata()).containsEntry("camera",
                    "x");
            assertThat(rebuilt.headObject("photos", "big").etag()).endsWith("-1");
            try (ObjectContent c = rebuilt.getObject("photos", "b.jpg")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(3, 400));
            }
            try (ObjectContent c = rebuilt.getObject("photos", "a.jpg")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(1, 2_000_000));
            }
            assertThat(rebuilt.fsck(true).clean()).isTrue();
            assertThatThrownBy(rebuilt::reindex).isInstanceOf(CofferException.class);
        }
    }
}

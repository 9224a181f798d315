package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.GcReport;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A gc plan (dry run) changes nothing and predicts the pass that follows it. */
class GcPlannerTest {
    @TempDir
    Path dir;

    @Test
    void aPlanChangesNothingAndEachPassDoesWhatItsPlanSaid() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO).packSize(16 << 20))) {
            e.coffer.createBucket("bkt", "t");
            int whole = 12 << 20;
            e.coffer.putObject(PutObjectRequest.of("bkt", "whole", whole), TestData.stream(5, whole));
            e.coffer.putObject(PutObjectRequest.of("bkt", "head", 4 << 20), TestData.stream(5, 4 << 20));
            e.coffer.putObject(PutObjectRequest.of("bkt", "gone", 3 << 20), TestData.stream(6, 3 << 20));
            e.blobs.put(BackendLayout.pack(BackendLayout.newId()), BlobContent.of(new byte[777]));
            e.coffer.deleteObject("bkt", "whole");
            e.coffer.deleteObject("bkt", "gone");
            Thread.sleep(5); // a chunk released in the same millisecond as the cutoff still counts as live

            List<BlobInfo> backend = e.blobs();
            StoreStats stats = e.meta.stats();
            GcReport plan = e.coffer.planGarbageCollection();
            assertThat(e.blobs()).isEqualTo(backend);
            assertThat(e.meta.stats()).isEqualTo(stats);
            assertThat(e.coffer.planGarbageCollection()).isEqualTo(plan);
            assertThat(plan.packsRewritten()).isPositive();
            assertThat(plan.blobsDeleted()).isEqualTo(1); // the orphan; the packs retired now go next pass
            assertThat(plan.bytesFreed()).isEqualTo(777);
            assertThat(e.coffer.collectGarbage()).isEqualTo(plan);

            Thread.sleep(5);
            GcReport second = e.coffer.planGarbageCollection();
            assertThat(second.blobsDeleted()).isEqualTo(plan.packsRetired());
            assertThat(second.bytesFreed()).isPositive();
            assertThat(e.coffer.collectGarbage()).isEqualTo(second);
            assertThat(e.coffer.planGarbageCollection()).isEqualTo(new GcReport(0, 0, 0, 0, 0));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }
}

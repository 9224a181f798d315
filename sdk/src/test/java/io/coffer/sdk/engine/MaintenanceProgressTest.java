package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.ProgressListener;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.ForwardingBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fsck, reindex and gc tell a progress listener their stages, each stage's size where known, and every step. */
class MaintenanceProgressTest {
    @TempDir
    Path dir;

    /** Records each stage with its announced total and the steps advanced in it. */
    private static final class Recorder implements ProgressListener {
        final Map<String, long[]> stages = new LinkedHashMap<>();
        private long[] current;

        @Override
        public void stage(String name, long total) {
            current = new long[] {total, 0};
            stages.put(name, current);
        }

        @Override
        public void advance(long steps) {
            current[1] += steps;
        }
    }

    private void store() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("alpha", "t");
            e.coffer.createBucket("beta", "t");
            for (int i = 0; i < 3; i++) {
                e.coffer.putObject(PutObjectRequest.of("alpha", "k" + i, 200_000), TestData.stream(i, 200_000));
            }
            e.coffer.putObject(PutObjectRequest.of("beta", "small", 100), TestData.stream(9, 100));
        }
    }

    @Test
    void fsckCountsEveryObjectAndPackAgainstTheTotalsItAnnounced() throws Exception {
        store();
        try (TestEngine e = TestEngine.open(dir)) {
            Recorder r = new Recorder();
            FsckReport report = e.coffer.fsck(true, r);
            assertThat(report.clean()).isTrue();
            assertThat(r.stages).containsOnlyKeys("listing the backend", "objects", "packs", "manifests");
            assertThat(r.stages.get("objects")).containsExactly(4, 4);
            long packs = e.blobs.list(BackendLayout.PACKS).toList().size();
            assertThat(r.stages.get("packs")).containsExactly(packs, packs);
            long[] manifests = r.stages.get("manifests");
            assertThat(manifests[1]).isEqualTo(manifests[0]).isPositive();
        }
    }

    @Test
    void reindexCountsEveryBlobItReadsAndEveryObjectItRestores() throws Exception {
        store();
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            Recorder r = new Recorder();
            ReindexReport report = rebuilt.reindex(r);
            assertThat(report.clean()).isTrue();
            assertThat(new ArrayList<>(r.stages.keySet())).containsExactly("bucket records", "pack indexes",
                    "tombstones", "manifests", "manifest groups", "objects", "object locks", "version attributes");
            assertThat(r.stages.get("bucket records")).containsExactly(-1, 2);
            assertThat(r.stages.get("pack indexes")).containsExactly(-1, report.packs());
            assertThat(r.stages.get("objects")).containsExactly(4, 4);
            assertThat(r.stages.get("object locks")).as("no version is locked").containsExactly(-1, 0);
            assertThat(r.stages.get("version attributes")).as("no tags or ACL were changed").containsExactly(-1, 0);
            assertThat(report.objects()).isEqualTo(4);
        }
    }

    @Test
    void gcCountsEveryPackItMeasuresAndEveryBlobItDeletes() throws Exception {
        store();
        try (TestEngine e = TestEngine.open(dir, o -> o.gcGrace(Duration.ZERO))) {
            e.coffer.deleteObject("alpha", "k0", null);
            e.coffer.deleteObject("alpha", "k1", null);
            e.blobs.put(BackendLayout.manifest(BackendLayout.newId()), BlobContent.of(new byte[10]));
            Recorder r = new Recorder();
            GcReport report = e.coffer.collectGarbage(r);
            assertThat(new ArrayList<>(r.stages.keySet())).containsExactly("packs", "retired packs",
                    "listing the backend", "orphans");
            long[] packs = r.stages.get("packs");
            assertThat(packs[1]).isEqualTo(packs[0]).isPositive();
            long[] retired = r.stages.get("retired packs");
            long[] orphans = r.stages.get("orphans");
            assertThat(retired[1]).isEqualTo(retired[0]);
            assertThat(orphans[1]).isEqualTo(orphans[0]).isPositive();
            assertThat(report.blobsDeleted()).isEqualTo(retired[1] + orphans[1]);
        }
    }

    @Test
    void fsckOfALiveStoreDoesNotCallAWriteCommittedAfterItsListingDamage() throws Exception {
        store();
        // every blob is missing from the listing, as if all were uploaded and committed after fsck listed the backend
        BlobStore blobs = new DirectoryBlobStore(dir.resolve("blobs"));
        BlobStore listedEarly = new ForwardingBlobStore(blobs) {
            @Override
            public BlobListing list(String prefix) {
                return BlobListing.of(List.of());
            }
        };
        try (Coffer late = Coffer.builder().blobStore(listedEarly)
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db")))
                .masterKey(MasterKey.load(dir.resolve("master.key"))).readOnlyBackend(true).build()) {
            FsckReport report = late.fsck(true);
            assertThat(report.damaged()).isEmpty();
            assertThat(report.objectsChecked()).isEqualTo(4);
        }
    }

    @Test
    void fsckStillReportsABlobThatIsReallyMissing() throws Exception {
        store();
        try (TestEngine e = TestEngine.open(dir)) {
            String pack = e.blobs.list(BackendLayout.PACKS).toList().get(0).name();
            e.blobs.delete(pack);
            FsckReport report = e.coffer.fsck(false);
            assertThat(report.damaged()).anySatisfy(d -> assertThat(d).contains(pack + ", missing from the backend"));
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A backend that alters stored bytes is caught on every read of the altered range and by fsck. */
class TamperingTest {
    private static final int SIZE = 12 << 20;

    @TempDir
    Path dir;

    @Test
    void flippedPackByteFailsEveryReadOfTheAffectedRangeAndFsckReportsIt() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(7, SIZE));
            ObjectRecord r = e.meta.object("bkt", "k").orElseThrow();
            Manifest m = StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
            Map<?, ChunkLocation> locs = e.meta.locate(m.distinctChunkIds());
            assertThat(m.entries().size()).isGreaterThan(3);

            // damage the third chunk of the object, in the middle of its ciphertext
            ManifestEntry victim = m.entries().get(2);
            ChunkLocation loc = locs.get(victim.id());
            long victimStart = m.entries().get(0).length() + (long) m.entries().get(1).length();
            byte[] pack = e.blobs.read(loc.pack(), 0, (int) e.blobs.head(loc.pack()).orElseThrow().size());
            pack[(int) (loc.offset() + loc.length() / 2)] ^= 0x01;
            e.blobs.put(loc.pack(), BlobContent.of(pack));

            assertIntegrityFailure(e, null);
            assertIntegrityFailure(e, ByteRange.of(victimStart + 10, victimStart + 20));
            assertIntegrityFailure(e, ByteRange.of(victimStart - 5, victimStart + 5));
            // a range that does not touch the damaged chunk still reads
            try (ObjectContent c = e.coffer.getObject("bkt", "k", ByteRange.of(0, 999))) {
                byte[] expected = TestData.stream(7, SIZE).readNBytes(1000);
                assertThat(c.stream().readAllBytes()).isEqualTo(expected);
            }

            FsckReport report = e.coffer.fsck(true);
            assertThat(report.clean()).isFalse();
            assertThat(report.damaged()).anySatisfy(d -> assertThat(d).contains("bkt/k").contains(
                    victim.id().toHex()).contains("integrity"));
        }
    }

    @Test
    void damageInTheFirstRunFailsGetObjectBeforeItReturnsAndLaterDamageFailsTheRead() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(7, SIZE));
            ObjectRecord r = e.meta.object("bkt", "k").orElseThrow();
            Manifest m = StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
            Map<?, ChunkLocation> locs = e.meta.locate(m.distinctChunkIds());

            // the last chunk lies past the first run (at most 4 MiB): getObject returns, the read fails there
            ManifestEntry last = m.entries().get(m.entries().size() - 1);
            flipByte(e, locs.get(last.id()));
            byte[] prefix;
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                prefix = TestData.stream(7, SIZE).readNBytes(1 << 20);
                assertThat(c.stream().readNBytes(1 << 20)).isEqualTo(prefix);
                assertThatThrownBy(() -> c.stream().transferTo(OutputStream.nullOutputStream()))
                        .isInstanceOf(IOException.class).cause().isInstanceOfSatisfying(CofferException.class,
                                ce -> assertThat(ce.code()).isEqualTo(ErrorCode.INTEGRITY_ERROR));
            }

            // the first chunk: getObject itself fails, before the caller has a stream to answer with
            flipByte(e, locs.get(m.entries().get(0).id()));
            assertThatThrownBy(() -> e.coffer.getObject("bkt", "k")).isInstanceOfSatisfying(
                    CofferException.class, ce -> assertThat(ce.code()).isEqualTo(ErrorCode.INTEGRITY_ERROR));
            assertThatThrownBy(() -> e.coffer.getObject("bkt", "k", ByteRange.of(10, 20))).isInstanceOfSatisfying(
                    CofferException.class, ce -> assertThat(ce.code()).isEqualTo(ErrorCode.INTEGRITY_ERROR));
            // a range that starts past the damage starts its first run there
            long start = m.entries().get(0).length();
            try (ObjectContent c = e.coffer.getObject("bkt", "k", ByteRange.of(start, start + 99))) {
                assertThat(c.stream().readAllBytes()).isEqualTo(Arrays.copyOfRange(
                        TestData.bytes(7, (int) start + 100), (int) start, (int) start + 100));
            }
        }
    }

    private static void flipByte(TestEngine e, ChunkLocation loc) throws IOException {
        byte[] pack = e.blobs.read(loc.pack(), 0, (int) e.blobs.head(loc.pack()).orElseThrow().size());
        pack[(int) (loc.offset() + loc.length() / 2)] ^= 0x01;
        e.blobs.put(loc.pack(), BlobContent.of(pack));
    }

    @Test
    void swappedManifestBlobsFailToOpen() throws Exception {
        // inline limit 0: each object has a manifest blob of its own (grouped ones: ManifestGroupsTest)
        try (TestEngine e = TestEngine.open(dir, b -> b.inlineLimit(0))) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "one", 10), TestData.stream(1, 10));
            e.coffer.putObject(PutObjectRequest.of("bkt", "two", 10), TestData.stream(2, 10));
            String one = BackendLayout.manifest(e.meta.object("bkt", "one").orElseThrow().versionId());
            String two = BackendLayout.manifest(e.meta.object("bkt", "two").orElseThrow().versionId());
            byte[] sealedTwo = e.blobs.read(two, 0, (int) e.blobs.head(two).orElseThrow().size());
            assertThatThrownBy(() -> StoredRecords.openManifest(e.masterKey, one, sealedTwo))
                    .isInstanceOf(ChunkIntegrityException.class);
        }
    }

    private static void assertIntegrityFailure(TestEngine e, ByteRange range) {
        // damage in the range's first run fails getObject itself, later damage the read
        assertThatThrownBy(() -> {
            try (ObjectContent c = e.coffer.getObject("bkt", "k", range)) {
                c.stream().transferTo(OutputStream.nullOutputStream());
            }
        }).satisfies(t -> assertThat(t instanceof CofferException ce ? ce : t.getCause())
                .isInstanceOfSatisfying(CofferException.class,
                        ce -> assertThat(ce.code()).isEqualTo(ErrorCode.INTEGRITY_ERROR)));
    }

    @Test
    void intactChunksInTheWrongOrderAreReportedByFsckWhenItReadsData() throws Exception {
        String versionId;
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(7, SIZE));
            ObjectRecord r = e.meta.object("bkt", "k").orElseThrow();
            versionId = r.versionId();
            Manifest m = StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(versionId), r.manifest());
            assertThat(e.coffer.fsck(true).clean()).isTrue();
            // the shape a writer bug once stored: the last (short) chunk's entry first, every chunk intact
            List<ManifestEntry> reordered = new ArrayList<>(m.entries());
            reordered.add(0, reordered.remove(reordered.size() - 1));
            e.blobs.put(BackendLayout.manifest(versionId), BlobContent.of(StoredRecords.sealManifest(e.masterKey,
                    new Manifest(m.bucket(), m.key(), m.versionId(), m.size(), m.etag(), m.lastModified(),
                            m.attributes(), m.partSizes(), m.partChecksums(), reordered, m.inline(), m.layerSide(),
                            m.nullVersion(), m.deleteMarker()))));
        }
        // a store rebuilt from that backend reads the reordered manifest; only reading the data in order tells
        try (Coffer rebuilt = Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("rebuilt.db")))
                .masterKey(MasterKey.loadOrCreate(dir.resolve("master.key"))).build()) {
            assertThat(rebuilt.reindex().clean()).isTrue();
            assertThat(rebuilt.fsck(false).clean()).isTrue();
            FsckReport report = rebuilt.fsck(true);
            assertThat(report.damaged()).singleElement().satisfies(d -> assertThat(d).startsWith("bkt/k:")
                    .contains("not the bytes its ETag names"));
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.chunk.ChunkerSpec;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compression before encryption through the engine: text is stored compressed (chunk format 3) and reads back whole
 * and in ranges, runs that mix compressed and raw chunks read back, chunk ids and dedup do not depend on it, a store
 * written without it still reads and dedups, fsck and reindex know the format, and damage is an integrity error.
 */
class CompressedChunksTest {
    /** Small chunks, so that one pack and one read run hold many, some compressed and some not. */
    private static final String SMALL_CHUNKS = "fastcdc:16k:64k:256k";

    @TempDir
    Path dir;

    @Test
    void textObjectIsStoredCompressedAndReadsBackWholeAndInRanges() throws Exception {
        byte[] text = TestData.text(1, 3 << 20);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", text);
            assertThat(packBytes(e)).isLessThan(text.length / 2);
            Map<ChunkId, ChunkLocation> locs = locations(e, "k");
            for (ManifestEntry entry : manifest(e, "k").entries()) {
                assertThat(ChunkCipher.isCompressed(locs.get(entry.id()).length(), entry.length())).isTrue();
            }
            assertThat(get(e.coffer, "k", null)).isEqualTo(text);
            assertRangesReadBack(e.coffer, "k", text, 3);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void runsMixingCompressedAndRawChunksReadBack() throws Exception {
        byte[] mixed = mixed(2, 2 << 20);
        try (TestEngine e = TestEngine.open(dir, b -> b.chunker(ChunkerSpec.parse(SMALL_CHUNKS).newChunker()))) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", mixed);
            Map<ChunkId, ChunkLocation> locs = locations(e, "k");
            List<ManifestEntry> entries = manifest(e, "k").entries();
            long compressed = entries.stream()
                    .filter(en -> ChunkCipher.isCompressed(locs.get(en.id()).length(), en.length())).count();
            assertThat(compressed).isBetween(3L, entries.size() - 3L);
            assertThat(get(e.coffer, "k", null)).isEqualTo(mixed);
            assertRangesReadBack(e.coffer, "k", mixed, 4);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void chunkIdsAndDedupAreTheSameWithCompressionOnOrOff() throws Exception {
        byte[] text = TestData.text(3, 3 << 19);
        Path off = dir.resolve("off");
        Path on = dir.resolve("on");
        Files.createDirectories(off);
        Files.createDirectories(on);
        List<ChunkId> idsOff;
        try (TestEngine e = TestEngine.open(off, b -> b.compression(false))) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", text);
            assertThat(packBytes(e)).isGreaterThan(text.length);
            idsOff = manifest(e, "k").entries().stream().map(ManifestEntry::id).toList();
        }
        // the same master key, so the same embedded key source: only compression differs
        Files.copy(off.resolve("master.key"), on.resolve("master.key"), StandardCopyOption.COPY_ATTRIBUTES);
        try (TestEngine e = TestEngine.open(on)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", text);
            assertThat(manifest(e, "k").entries().stream().map(ManifestEntry::id).toList()).isEqualTo(idsOff);
            long packs = packBytes(e);
            assertThat(packs).isLessThan(text.length / 2);

            put(e.coffer, "again", text);
            assertThat(packBytes(e)).isEqualTo(packs);
            assertThat(get(e.coffer, "again", null)).isEqualTo(text);
        }
    }

    @Test
    void storeWrittenWithoutCompressionReadsAfterItIsTurnedOnAndDedupsAgainstItsChunks() throws Exception {
        byte[] text = TestData.text(4, 2 << 20);
        try (TestEngine e = TestEngine.open(dir, b -> b.compression(false))) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "old", text);
            Map<ChunkId, ChunkLocation> locs = locations(e, "old");
            for (ManifestEntry entry : manifest(e, "old").entries()) {
                assertThat(locs.get(entry.id()).length()).isEqualTo(ChunkCipher.sealedLength(entry.length()));
            }
        }
        try (TestEngine e = TestEngine.open(dir)) {
            assertThat(get(e.coffer, "old", null)).isEqualTo(text);
            long packs = packBytes(e);
            put(e.coffer, "same", text);
            assertThat(packBytes(e)).isEqualTo(packs);
            byte[] other = TestData.text(5, 2 << 20);
            put(e.coffer, "new", other);
            assertThat(packBytes(e) - packs).isLessThan(other.length / 2);
            assertThat(get(e.coffer, "same", null)).isEqualTo(text);
            assertThat(get(e.coffer, "new", null)).isEqualTo(other);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void reindexRebuildsAStoreOfCompressedChunks() throws Exception {
        byte[] mixed = mixed(6, 2 << 20);
        try (TestEngine e = TestEngine.open(dir, b -> b.chunker(ChunkerSpec.parse(SMALL_CHUNKS).newChunker()))) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", mixed);
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            assertThat(rebuilt.reindex().objects()).isEqualTo(1);
            assertThat(get(rebuilt, "k", null)).isEqualTo(mixed);
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void alteredCompressedChunkIsAnIntegrityErrorAndFsckReportsIt() throws Exception {
        byte[] text = TestData.text(7, 1 << 20);
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            put(e.coffer, "k", text);
            BlobInfo pack = e.blobs().stream().filter(b -> b.name().startsWith("p/")).findFirst().orElseThrow();
            byte[] bytes = e.blobs.read(pack.name(), 0, (int) pack.size());
            bytes[100] ^= 0x10;
            e.blobs.put(pack.name(), BlobContent.of(bytes));
            assertThatThrownBy(() -> get(e.coffer, "k", null)).isInstanceOfSatisfying(CofferException.class,
                    ce -> assertThat(ce.code()).isEqualTo(ErrorCode.INTEGRITY_ERROR));
            assertThat(e.coffer.fsck(true).clean()).isFalse();
        }
    }

    /** Text and random data in alternating pieces of 20 to 200 KiB. */
    private static byte[] mixed(long seed, int length) {
        byte[] out = new byte[length];
        byte[] text = TestData.text(seed, length);
        byte[] random = TestData.bytes(seed, length);
        SplittableRandom r = new SplittableRandom(seed);
        boolean isText = true;
        for (int pos = 0; pos < length; isText = !isText) {
            int n = Math.min(length - pos, (20 << 10) + r.nextInt(180 << 10));
            System.arraycopy(isText ? text : random, pos, out, pos, n);
            pos += n;
        }
        return out;
    }

    private static void assertRangesReadBack(Coffer coffer, String key, byte[] data, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 12; i++) {
            int from = r.nextInt(data.length);
            int to = Math.min(data.length - 1, from + r.nextInt(1 << 20));
            assertThat(get(coffer, key, ByteRange.of(from, to)))
                    .isEqualTo(Arrays.copyOfRange(data, from, to + 1));
        }
    }

    private static void put(Coffer coffer, String key, byte[] data) {
        coffer.putObject(PutObjectRequest.of("bkt", key, data.length), new ByteArrayInputStream(data));
    }

    private static byte[] get(Coffer coffer, String key, ByteRange range) throws IOException {
        try (ObjectContent c = coffer.getObject("bkt", key, range)) {
            return c.stream().readAllBytes();
        }
    }

    private static long packBytes(TestEngine e) throws IOException {
        return e.blobs().stream().filter(b -> b.name().startsWith("p/")).mapToLong(BlobInfo::size).sum();
    }

    private static Map<ChunkId, ChunkLocation> locations(TestEngine e, String key) throws Exception {
        return e.meta.locate(manifest(e, key).distinctChunkIds());
    }

    private static Manifest manifest(TestEngine e, String key) throws Exception {
        var r = e.meta.object("bkt", key).orElseThrow();
        return StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
    }
}

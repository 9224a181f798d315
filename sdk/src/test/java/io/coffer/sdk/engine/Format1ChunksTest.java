package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.pack.PackWriter;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store written before chunk format 2 (chunks AES-CTR under their key, no tag, checked by the plaintext's SHA-256)
 * still reads after the upgrade, and its chunks are still checked.
 */
class Format1ChunksTest {
    private static final int SIZE = 3 << 20;

    @TempDir
    Path dir;

    @Test
    void objectWhoseChunksAreInFormat1ReadsBackPassesFsckAndIsStillChecked() throws Exception {
        byte[] plain = TestData.stream(3, SIZE).readAllBytes();
        String format1Pack;
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(3, SIZE));
            Manifest m = manifest(e);
            Map<ChunkId, ChunkLocation> locs = e.meta.locate(m.distinctChunkIds());
            assertThat(m.entries()).hasSizeGreaterThan(1);
            String oldPack = locs.get(m.entries().get(0).id()).pack();
            for (ManifestEntry entry : m.entries()) {
                // written now: format 2, a tag after each chunk, all in one pack
                assertThat(locs.get(entry.id()).length()).isEqualTo(ChunkCipher.sealedLength(entry.length()));
                assertThat(locs.get(entry.id()).pack()).isEqualTo(oldPack);
            }

            // rewrite the pack as format 1 wrote it, and move the chunks there as a pack rewrite does
            PackWriter w = new PackWriter(BackendLayout.pack(BackendLayout.newId()), SIZE + 4096);
            int pos = 0;
            for (ManifestEntry entry : m.entries()) {
                w.append(entry.id(), ctr(entry.key().rawBytesForCipher(), plain, pos, entry.length()));
                pos += entry.length();
            }
            int size = w.finish(e.masterKey);
            e.blobs.put(w.name(), BlobContent.of(w.buffer(), 0, size));
            e.meta.registerPack(new PackRecord(w.name(), size, Instant.now()), w.chunks());
            e.meta.retirePack(oldPack, w.chunks(), Instant.now());
            format1Pack = w.name();
        }

        try (TestEngine e = TestEngine.open(dir)) {
            Manifest m = manifest(e);
            Map<ChunkId, ChunkLocation> locs = e.meta.locate(m.distinctChunkIds());
            for (ManifestEntry entry : m.entries()) {
                assertThat(locs.get(entry.id()).length()).isEqualTo(entry.length());
            }
            assertThat(read(e, null)).isEqualTo(plain);
            assertThat(read(e, ByteRange.of(SIZE / 2 - 10, SIZE / 2 + 10)))
                    .isEqualTo(Arrays.copyOfRange(plain, SIZE / 2 - 10, SIZE / 2 + 11));
            assertThat(e.coffer.fsck(true).clean()).isTrue();

            // a new object with the same content deduplicates against the format-1 chunks and reads back
            e.coffer.putObject(PutObjectRequest.of("bkt", "again", SIZE), TestData.stream(3, SIZE));
            try (ObjectContent c = e.coffer.getObject("bkt", "again")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(plain);
            }

            byte[] pack = e.blobs.read(format1Pack, 0, (int) e.blobs.head(format1Pack).orElseThrow().size());
            pack[1000] ^= 0x04;
            e.blobs.put(format1Pack, BlobContent.of(pack));
            // the damaged run is the first one read: getObject itself reports it, before any content is handed out
            assertThatThrownBy(() -> read(e, ByteRange.of(0, 2000))).isInstanceOfSatisfying(CofferException.class,
                            ce -> assertThat(ce.code()).isEqualTo(ErrorCode.INTEGRITY_ERROR));
            assertThat(e.coffer.fsck(true).clean()).isFalse();
        }
    }

    private static Manifest manifest(TestEngine e) throws Exception {
        var r = e.meta.object("bkt", "k").orElseThrow();
        return StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
    }

    private static byte[] read(TestEngine e, ByteRange range) throws IOException {
        try (ObjectContent c = e.coffer.getObject("bkt", "k", range)) {
            return c.stream().readAllBytes();
        }
    }

    private static byte[] ctr(byte[] key, byte[] data, int offset, int length) throws Exception {
        Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
        return c.doFinal(data, offset, length);
    }
}

package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import io.coffer.sdk.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Chunk format 3 (docs/FORMAT.md, "Chunks"): a chunk compressed where it pays, stored raw (format 2) where it does not,
 * deterministic, told apart from formats 1 and 2 by its length, and a frame that does not decode to exactly the
 * manifest's length is damage. {@link #sealPerFormatMd} builds chunks from the document alone.
 */
class CompressedChunkFormatTest {
    private static final byte[] STORE_KEY = TestData.bytes(1, 32);
    private final ChunkCipher cipher = new ChunkCipher(STORE_KEY);

    @Test
    void textChunkIsStoredCompressedShorterThanItsPlaintextAndOpensBack() throws Exception {
        byte[] plain = TestData.text(1, 1 << 20);
        ChunkKey key = ChunkKey.random();
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        int stored = cipher.sealChunk(key, plain, 0, plain.length, true, out, 0);

        assertThat(stored).isLessThan(plain.length / 2);
        assertThat(ChunkCipher.isCompressed(stored, plain.length)).isTrue();
        byte[] opened = new byte[plain.length];
        new ChunkCipher(STORE_KEY).open(key, out, 0, stored, opened, 0, plain.length, null);
        assertThat(opened).isEqualTo(plain);
    }

    @Test
    void randomChunkIsStoredExactlyAsFormat2() {
        byte[] plain = TestData.bytes(2, 300_000);
        ChunkKey key = ChunkKey.random();
        byte[] viaCompression = new byte[ChunkCipher.sealedLength(plain.length)];
        byte[] format2 = new byte[ChunkCipher.sealedLength(plain.length)];

        int stored = cipher.sealChunk(key, plain, 0, plain.length, true, viaCompression, 0);
        cipher.seal(key, plain, 0, plain.length, format2, 0);

        assertThat(stored).isEqualTo(ChunkCipher.sealedLength(plain.length));
        assertThat(viaCompression).isEqualTo(format2);
    }

    @Test
    void compressionOffStoresTextAsFormat2() {
        byte[] plain = TestData.text(3, 100_000);
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        assertThat(cipher.sealChunk(ChunkKey.random(), plain, 0, plain.length, false, out, 0))
                .isEqualTo(ChunkCipher.sealedLength(plain.length));
    }

    @Test
    void compressionThatSavesLessThanItsMarginIsNotKept() {
        // half text, half random: zstd saves a little under half; with the margin raised past that it is stored raw
        byte[] plain = new byte[64 << 10];
        System.arraycopy(TestData.text(4, 2 << 10), 0, plain, 0, 2 << 10);
        System.arraycopy(TestData.bytes(4, plain.length - (2 << 10)), 0, plain, 2 << 10, plain.length - (2 << 10));
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        int stored = cipher.sealChunk(ChunkKey.random(), plain, 0, plain.length, true, out, 0);
        // 2 KiB of text saves less than a 32nd of 64 KiB after the frame's own overhead: raw
        assertThat(stored).isEqualTo(ChunkCipher.sealedLength(plain.length));
        assertThat(ChunkCipher.frameLimit(plain.length)).isEqualTo(plain.length - 28 - plain.length / 32);
        // chunks too small to save anything after 28 bytes of overhead are never compressed
        byte[] tiny = TestData.bytes(13, 40);
        assertThat(cipher.sealChunk(ChunkKey.random(), tiny, 0, tiny.length, true, new byte[56], 0)).isEqualTo(56);
    }

    @Test
    void equalChunksUnderEqualKeysGiveEqualBytesOnOneInstanceAndAcrossInstances() {
        byte[] plain = TestData.text(5, 200_000);
        ChunkKey key = ChunkKey.of(TestData.bytes(6, 32));
        byte[] first = sealed(cipher, key, plain);
        byte[] again = sealed(cipher, key, plain);
        byte[] elsewhere = sealed(new ChunkCipher(STORE_KEY), key, plain);
        assertThat(again).isEqualTo(first);
        assertThat(elsewhere).isEqualTo(first);
        assertThat(sealed(cipher, ChunkKey.of(TestData.bytes(7, 32)), plain)).isNotEqualTo(first);
    }

    @Test
    void chunkBuiltFromFormatMdAloneOpens() throws Exception {
        byte[] plain = TestData.text(8, 50_000);
        ChunkKey key = ChunkKey.random();
        byte[] frame = Zstd.compress(plain, 3);
        byte[] stored = sealPerFormatMd(key, new byte[12], frame);
        byte[] opened = new byte[plain.length];
        cipher.open(key, stored, 0, stored.length, opened, 0, plain.length, null);
        assertThat(opened).isEqualTo(plain);

        // what the cipher writes is that construction with nonce = HMAC(HMAC(nonceKey, K), frame)[0:12]
        byte[] ours = sealed(cipher, key, plain);
        byte[] ourFrame = Zstd.compress(plain, ChunkCompressor.DEFAULT_LEVEL);
        assertThat(ours).isEqualTo(sealPerFormatMd(key, nonce(key, ourFrame), ourFrame));
    }

    @Test
    void chunkLongerThanTheHeadIsTwoFramesTheHeadsAndTheRests() throws Exception {
        byte[] plain = TestData.text(14, 300_000);
        ChunkKey key = ChunkKey.random();
        byte[] head = Zstd.compress(Arrays.copyOf(plain, ChunkCompressor.HEAD), ChunkCompressor.DEFAULT_LEVEL);
        byte[] rest = Zstd.compress(Arrays.copyOfRange(plain, ChunkCompressor.HEAD, plain.length),
                ChunkCompressor.DEFAULT_LEVEL);
        byte[] frames = Arrays.copyOf(head, head.length + rest.length);
        System.arraycopy(rest, 0, frames, head.length, rest.length);
        assertThat(sealed(cipher, key, plain)).isEqualTo(sealPerFormatMd(key, nonce(key, frames), frames));
    }

    @Test
    void chunkWhoseHeadDoesNotCompressIsStoredRawAfterCompressingOnlyTheHead() {
        // an incompressible first 128 KiB ends the attempt, even though the rest is text
        byte[] plain = TestData.text(15, 1 << 20);
        System.arraycopy(TestData.bytes(15, ChunkCompressor.HEAD), 0, plain, 0, ChunkCompressor.HEAD);
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        assertThat(cipher.sealChunk(ChunkKey.random(), plain, 0, plain.length, true, out, 0))
                .isEqualTo(ChunkCipher.sealedLength(plain.length));
        // text first, random after: the head alone saves more than a 32nd of the whole, so the chunk is compressed
        byte[] mostlyRandom = TestData.bytes(16, 1 << 20);
        System.arraycopy(TestData.text(16, ChunkCompressor.HEAD), 0, mostlyRandom, 0, ChunkCompressor.HEAD);
        assertThat(cipher.sealChunk(ChunkKey.random(), mostlyRandom, 0, mostlyRandom.length, true, out, 0))
                .isLessThan(ChunkCipher.sealedLength(mostlyRandom.length));
    }

    @Test
    void alteredCompressedChunkFailsItsCheck() {
        byte[] plain = TestData.text(9, 100_000);
        ChunkKey key = ChunkKey.random();
        byte[] good = sealed(cipher, key, plain);
        for (int at : new int[] {0, 11, 12, good.length / 2, good.length - 1}) {
            byte[] bad = good.clone();
            bad[at] ^= 0x01;
            assertThatThrownBy(() -> cipher.open(key, bad, 0, bad.length, new byte[plain.length], 0, plain.length,
                    null)).isInstanceOf(ChunkIntegrityException.class);
        }
        assertThatThrownBy(() -> cipher.open(ChunkKey.random(), good, 0, good.length, new byte[plain.length], 0,
                plain.length, null)).isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void frameThatDecodesToMoreOrLessThanTheManifestLengthIsDamageNotAnAllocation() {
        ChunkKey key = ChunkKey.random();
        // a 64 MiB run of zeros compresses to a few KiB: opened as a chunk of 1 MiB it must stop at 1 MiB
        byte[] bomb = Zstd.compress(new byte[64 << 20], 3);
        byte[] stored = sealPerFormatMd(key, new byte[12], bomb);
        assertThatThrownBy(() -> cipher.open(key, stored, 0, stored.length, new byte[1 << 20], 0, 1 << 20, null))
                .isInstanceOf(ChunkIntegrityException.class);

        byte[] plain = TestData.text(10, 100_000);
        byte[] ours = sealed(cipher, key, plain);
        // the same frame under a manifest that claims another length, shorter or longer
        assertThatThrownBy(() -> cipher.open(key, ours, 0, ours.length, new byte[plain.length], 0, plain.length - 1,
                null)).isInstanceOf(ChunkIntegrityException.class);
        assertThatThrownBy(() -> cipher.open(key, ours, 0, ours.length, new byte[plain.length + 1], 0,
                plain.length + 1, null)).isInstanceOf(ChunkIntegrityException.class);

        byte[] notZstd = sealPerFormatMd(key, new byte[12], TestData.bytes(11, 1000));
        assertThatThrownBy(() -> cipher.open(key, notZstd, 0, notZstd.length, new byte[5000], 0, 5000, null))
                .isInstanceOf(ChunkIntegrityException.class);
        byte[] noFrame = sealPerFormatMd(key, new byte[12], new byte[0]);
        assertThatThrownBy(() -> cipher.open(key, noFrame, 0, noFrame.length, new byte[5000], 0, 5000, null))
                .isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void openingIntoAnOverlappingRangeOfTheSameBufferWorks() throws Exception {
        byte[] plain = TestData.text(12, 100_000);
        ChunkKey key = ChunkKey.random();
        byte[] sealed = sealed(cipher, key, plain);
        // stored bytes at the end of a buffer of the plaintext's size, opened to its start: the read path's layout
        byte[] buf = new byte[plain.length];
        System.arraycopy(sealed, 0, buf, buf.length - sealed.length, sealed.length);
        cipher.open(key, buf, buf.length - sealed.length, sealed.length, buf, 0, plain.length, null);
        assertThat(buf).isEqualTo(plain);
    }

    private static byte[] sealed(ChunkCipher c, ChunkKey key, byte[] plain) {
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        int n = c.sealChunk(key, plain, 0, plain.length, true, out, 0);
        return Arrays.copyOf(out, n);
    }

    /** docs/FORMAT.md, "Chunks", format 3: {@code nonce | AES-256-GCM(Kc, nonce, frame, aad)}. */
    private static byte[] sealPerFormatMd(ChunkKey key, byte[] nonce, byte[] frame) {
        try {
            byte[] kc = hmac(STORE_KEY, key.rawBytesForCipher());
            Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
            gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(kc, "AES"), new GCMParameterSpec(128, nonce));
            gcm.updateAAD("coffer/chunk/v3/zstd".getBytes(StandardCharsets.US_ASCII));
            byte[] ct = gcm.doFinal(frame);
            byte[] out = Arrays.copyOf(nonce, 12 + ct.length);
            System.arraycopy(ct, 0, out, 12, ct.length);
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] nonce(ChunkKey key, byte[] frame) {
        byte[] nonceKey = hmac(STORE_KEY, "coffer/chunk-nonce/v3".getBytes(StandardCharsets.US_ASCII));
        return Arrays.copyOf(hmac(hmac(nonceKey, key.rawBytesForCipher()), frame), 12);
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

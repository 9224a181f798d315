package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class ChunkCipherTest {
    private static final byte[] STORE_KEY = bytes(32, 1);
    private final ChunkCipher cipher = new ChunkCipher(STORE_KEY);

    @Test
    void sealedChunkOpensToItsPlaintextAndIsTagLengthLonger() throws Exception {
        for (int length : new int[] {1, 16, 1000, (1 << 20) + 3}) {
            byte[] plain = bytes(length, length);
            ChunkKey key = ChunkKey.random();
            byte[] sealed = seal(cipher, key, plain);
            assertThat(sealed).hasSize(length + ChunkCipher.TAG_LENGTH);
            assertThat(Arrays.copyOf(sealed, length)).isNotEqualTo(plain);
            cipher.open(key, sealed, 0, sealed.length, length, cipher.hash(plain, 0, length));
            assertThat(Arrays.copyOf(sealed, length)).isEqualTo(plain);
        }
    }

    /**
     * Ids and stored bytes of formats 2 and 3 as the first implementation made them (computed with it, before the
     * cipher kept its seal-key and nonce-key HMACs keyed across chunks): stores written before must stay readable and
     * dedup against new writes. Format 3's bytes also depend on zstd's output (zstd-jni 1.5.7-28).
     */
    @Test
    void idsAndSealedBytesStayThoseOfTheFirstImplementation() throws Exception {
        byte[] sealKey = new byte[32];
        byte[] k = new byte[32];
        for (int i = 0; i < 32; i++) {
            sealKey[i] = (byte) i;
            k[i] = (byte) (32 + i);
        }
        ChunkCipher c = new ChunkCipher(sealKey);
        ChunkKey key = ChunkKey.of(k);
        byte[] phrase = "coffer stores chunks; ".getBytes(StandardCharsets.US_ASCII);
        byte[] text = new byte[1000];
        for (int i = 0; i < text.length; i++) {
            text[i] = phrase[i % phrase.length];
        }
        byte[] noise = new byte[1000];
        long x = 1;
        for (int i = 0; i < noise.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            noise[i] = (byte) (x >>> 56);
        }
        // twice over, so that the second pass runs on Macs already used
        for (int pass = 0; pass < 2; pass++) {
            assertThat(c.idFor(key).toHex())
                    .isEqualTo("051c75568deb74dc3465bbdf4c42c00b6e83afd3048de98cc747ed7ed35c413f");
            assertThat(ChunkCipher.idOf(key)).isEqualTo(c.idFor(key));
            assertThat(sealedChunkDigest(c, key, text))
                    .isEqualTo("67 eba987666ed0919fcc6e8e86e0e1ed49a49cc4008058ac0d6fba069a9f38deeb");
            assertThat(sha256Hex(seal(c, key, text)))
                    .isEqualTo("7451700b76f0a0a9cea1f1ffa898954c77bf48fa86c3388a64bd85070485a347");
            // noise does not compress: stored as format 2 by both
            String raw = "43807622c21edebe61a4e67362b7974024179a79c58cb78fdfe66357089276f6";
            assertThat(sealedChunkDigest(c, key, noise)).isEqualTo("1016 " + raw);
            assertThat(sha256Hex(seal(c, key, noise))).isEqualTo(raw);
        }
    }

    private static String sealedChunkDigest(ChunkCipher c, ChunkKey key, byte[] plain) throws Exception {
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        int n = c.sealChunk(key, plain, 0, plain.length, true, out, 0);
        return n + " " + sha256Hex(Arrays.copyOf(out, n));
    }

    private static String sha256Hex(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void equalChunksSealEquallyOnOneInstanceTwiceInARowAndAcrossInstances() {
        byte[] plain = bytes(4096, 2);
        ChunkKey key = ChunkKey.of(bytes(32, 3));
        byte[] first = seal(cipher, key, plain);
        // the JCE refuses a second GCM encryption under its previous key and nonce unless the cipher copes
        byte[] second = seal(cipher, key, plain);
        byte[] elsewhere = seal(new ChunkCipher(STORE_KEY), key, plain);
        assertThat(second).isEqualTo(first);
        assertThat(elsewhere).isEqualTo(first);
    }

    @Test
    void anotherStoresSealKeyGivesOtherBytesAndCannotOpenThem() {
        byte[] plain = bytes(4096, 4);
        ChunkKey key = ChunkKey.of(bytes(32, 5));
        ChunkCipher other = new ChunkCipher(bytes(32, 6));
        byte[] mine = seal(cipher, key, plain);
        byte[] theirs = seal(other, key, plain);
        assertThat(theirs).isNotEqualTo(mine);
        // knowing K (as anyone who knows the plaintext may, through the key source) is not enough to make a tag
        assertThatThrownBy(() -> cipher.open(key, theirs, 0, theirs.length, plain.length, cipher.hash(plain, 0,
                plain.length))).isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void aFlippedBitInCiphertextOrTagFailsTheCheck() {
        byte[] plain = bytes(70_000, 7);
        ChunkKey key = ChunkKey.random();
        byte[] hash = cipher.hash(plain, 0, plain.length);
        for (int at : new int[] {0, 35_000, plain.length - 1, plain.length, plain.length + 15}) {
            byte[] sealed = seal(cipher, key, plain);
            sealed[at] ^= 0x40;
            assertThatThrownBy(() -> cipher.open(key, sealed, 0, sealed.length, plain.length, hash))
                    .as("flipped byte %d", at).isInstanceOf(ChunkIntegrityException.class);
        }
    }

    @Test
    void aChunkSealedUnderAnotherKeyFailsTheCheck() {
        byte[] plain = bytes(5000, 8);
        byte[] swapped = seal(cipher, ChunkKey.random(), bytes(5000, 9));
        assertThatThrownBy(() -> cipher.open(ChunkKey.random(), swapped, 0, swapped.length, plain.length,
                cipher.hash(plain, 0, plain.length))).isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void aFormat1ChunkOpensAndIsCheckedByItsPlaintextHash() throws Exception {
        byte[] plain = bytes(100_000, 10);
        ChunkKey key = ChunkKey.random();
        byte[] hash = cipher.hash(plain, 0, plain.length);
        byte[] stored = format1(key, plain);
        cipher.open(key, stored, 0, stored.length, plain.length, hash);
        assertThat(stored).isEqualTo(plain);

        byte[] damaged = format1(key, plain);
        damaged[500] ^= 0x01;
        assertThatThrownBy(() -> cipher.open(key, damaged, 0, damaged.length, plain.length, hash))
                .isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void aStoredLengthThatFitsNeitherFormatIsRefused() {
        byte[] plain = bytes(300, 11);
        ChunkKey key = ChunkKey.random();
        byte[] sealed = seal(cipher, key, plain);
        assertThatThrownBy(() -> cipher.open(key, sealed, 0, plain.length + 8, plain.length, cipher.hash(plain, 0,
                plain.length))).isInstanceOf(ChunkIntegrityException.class).hasMessageContaining("stored bytes");
    }

    private static byte[] seal(ChunkCipher c, ChunkKey key, byte[] plain) {
        byte[] out = new byte[ChunkCipher.sealedLength(plain.length)];
        c.seal(key, plain, 0, plain.length, out, 0);
        return out;
    }

    /** A chunk as format 1 stored it: AES-256-CTR under K itself, zero IV, no tag. */
    private static byte[] format1(ChunkKey key, byte[] plain) throws Exception {
        Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
        ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key.rawBytesForCipher(), "AES"),
                new IvParameterSpec(new byte[16]));
        return ctr.doFinal(plain);
    }

    private static byte[] bytes(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }
}

package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
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

package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SubChunkCipherTest {
    private static SubChunkCipher cipher(int seed) {
        byte[] k = new byte[32];
        new Random(seed).nextBytes(k);
        return new SubChunkCipher(k);
    }

    private static ChunkKey key(int seed) {
        byte[] k = new byte[32];
        new Random(1000 + seed).nextBytes(k);
        return ChunkKey.of(k);
    }

    private static byte[] data(int seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** The stored form rebuilt from the definition with other primitives (AES-ECB for the counter blocks). */
    @Test
    void sealedFormIsTheSyntheticIvThenCounterModeUnderKeysDerivedFromSealAndClusterKey() throws Exception {
        byte[] seal = new byte[32];
        new Random(7).nextBytes(seal);
        byte[] k = new byte[32];
        new Random(1001).nextBytes(k);
        byte[] p = data(9, 1000);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(seal, "HmacSHA256"));
        mac.update("coffer/subchunk-siv/v2".getBytes(StandardCharsets.US_ASCII));
        byte[] km = mac.doFinal(k);
        mac.update("coffer/subchunk-ctr/v2".getBytes(StandardCharsets.US_ASCII));
        byte[] ke = mac.doFinal(k);
        mac.init(new SecretKeySpec(km, "HmacSHA256"));
        byte[] v = Arrays.copyOf(mac.doFinal(p), 16);
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(ke, "AES"));
        byte[] expected = Arrays.copyOf(v, 16 + p.length);
        BigInteger counter = new BigInteger(1, v);
        for (int i = 0; i < p.length; i += 16) {
            byte[] block = counter.add(BigInteger.valueOf(i / 16)).toByteArray();
            byte[] be = new byte[16];
            int n = Math.min(16, block.length);
            System.arraycopy(block, block.length - n, be, 16 - n, n);
            byte[] stream = ecb.doFinal(be);
            for (int j = 0; j < 16 && i + j < p.length; j++) {
                expected[16 + i + j] = (byte) (p[i + j] ^ stream[j]);
            }
        }
        assertThat(cipher(7).seal(key(1), p, 0, p.length)).isEqualTo(expected);
    }

    @Test
    void equalKeyAndPlaintextGiveEqualCiphertextsAcrossInstances() throws Exception {
        byte[] p = data(1, 700);
        byte[] a = cipher(7).seal(key(1), p, 0, p.length);
        byte[] b = cipher(7).seal(key(1), p, 0, p.length);
        assertThat(a).isEqualTo(b).hasSize(p.length + SubChunkCipher.OVERHEAD);
        assertThat(cipher(7).open(key(1), a, 0, a.length)).isEqualTo(p);
    }

    @Test
    void differentPlaintextsUnderOneClusterKeyGetDifferentNonces() {
        SubChunkCipher c = cipher(7);
        byte[] p = data(2, 512);
        byte[] q = p.clone();
        q[100] ^= 1;
        byte[] a = c.seal(key(1), p, 0, p.length);
        byte[] b = c.seal(key(1), q, 0, q.length);
        assertThat(Arrays.copyOf(a, SubChunkCipher.SIV_LENGTH))
                .isNotEqualTo(Arrays.copyOf(b, SubChunkCipher.SIV_LENGTH));
        // a keystream reused under a fixed nonce would make the XOR of the ciphertexts the XOR of the plaintexts
        int equalBytes = 0;
        for (int i = SubChunkCipher.SIV_LENGTH; i < SubChunkCipher.SIV_LENGTH + p.length; i++) {
            if (a[i] == b[i]) {
                equalBytes++;
            }
        }
        assertThat(equalBytes).isLessThan(20);
    }

    @Test
    void ciphertextDependsOnClusterKeyAndSealKey() {
        byte[] p = data(3, 300);
        byte[] a = cipher(7).seal(key(1), p, 0, p.length);
        assertThat(cipher(7).seal(key(2), p, 0, p.length)).isNotEqualTo(a);
        assertThat(cipher(8).seal(key(1), p, 0, p.length)).isNotEqualTo(a);
    }

    @Test
    void sealsASliceOfALargerArray() throws Exception {
        byte[] big = data(4, 2000);
        SubChunkCipher c = cipher(7);
        byte[] a = c.seal(key(1), big, 500, 200);
        assertThat(a).isEqualTo(c.seal(key(1), Arrays.copyOfRange(big, 500, 700), 0, 200));
        assertThat(c.open(key(1), a, 0, a.length)).isEqualTo(Arrays.copyOfRange(big, 500, 700));
    }

    @Test
    void anAlteredNonceCiphertextOrTagIsRejected() {
        SubChunkCipher c = cipher(7);
        byte[] p = data(5, 256);
        byte[] sealed = c.seal(key(1), p, 0, p.length);
        for (int at : new int[] {0, SubChunkCipher.SIV_LENGTH + 10, sealed.length - 1}) {
            byte[] bad = sealed.clone();
            bad[at] ^= 0x40;
            assertThatThrownBy(() -> c.open(key(1), bad, 0, bad.length))
                    .isInstanceOf(ChunkIntegrityException.class).as("byte " + at);
        }
        assertThatThrownBy(() -> c.open(key(2), sealed, 0, sealed.length)).isInstanceOf(ChunkIntegrityException.class);
        assertThatThrownBy(() -> c.open(key(1), sealed, 0, sealed.length - 1))
                .isInstanceOf(ChunkIntegrityException.class);
        assertThatThrownBy(() -> c.open(key(1), sealed, 0, 10)).isInstanceOf(ChunkIntegrityException.class)
                .hasMessageContaining("fewer than");
    }

    @Test
    void emptySubChunkRoundTrips() throws Exception {
        SubChunkCipher c = cipher(7);
        byte[] sealed = c.seal(key(1), new byte[0], 0, 0);
        assertThat(sealed).hasSize(SubChunkCipher.OVERHEAD);
        assertThat(c.open(key(1), sealed, 0, sealed.length)).isEmpty();
    }

    /** One instance keeps keyed state between calls (issue 20): it must seal every sub-chunk as a fresh one would. */
    @Test
    void aCipherReusedAcrossKeysSubChunksAndOpensSealsAsAFreshOne() throws Exception {
        SubChunkCipher reused = cipher(7);
        int[] keys = {1, 1, 1, 2, 1, 3, 3, 2, 2};
        for (int i = 0; i < keys.length; i++) {
            byte[] p = data(20 + i, 100 + 300 * i);
            byte[] sealed = reused.seal(key(keys[i]), p, 0, p.length);
            assertThat(sealed).isEqualTo(cipher(7).seal(key(keys[i]), p, 0, p.length));
            if (i % 2 == 0) {
                assertThat(reused.open(key(keys[i]), sealed, 0, sealed.length)).isEqualTo(p);
            }
        }
    }
}

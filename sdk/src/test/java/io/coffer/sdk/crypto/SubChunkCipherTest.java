package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SubChunkCipherTest {
    private static final HexFormat HEX = HexFormat.of();

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

    @Test
    void gcmSivPrimitiveMatchesEveryRfc8452Vector() throws IOException {
        JsonNode root;
        try (InputStream in = getClass().getResourceAsStream("/vectors/siv/rfc8452-aes-gcm-siv.json")) {
            assertThat(in).as("test resource vectors/siv/rfc8452-aes-gcm-siv.json").isNotNull();
            root = new ObjectMapper().readTree(in);
        }
        int checked = 0;
        for (JsonNode v : root.get("vectors")) {
            byte[] out = SubChunkCipher.gcmSiv(HEX.parseHex(v.get("key").asText()), HEX.parseHex(v.get("iv").asText()),
                    HEX.parseHex(v.get("aad").asText()), HEX.parseHex(v.get("msg").asText()));
            assertThat(HEX.formatHex(out)).as("tcId " + v.get("tcId").asInt())
                    .isEqualTo(v.get("ct").asText() + v.get("tag").asText());
            checked++;
        }
        assertThat(checked).isEqualTo(50);
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
        assertThat(Arrays.copyOf(a, SubChunkCipher.NONCE_LENGTH))
                .isNotEqualTo(Arrays.copyOf(b, SubChunkCipher.NONCE_LENGTH));
        // a keystream reused under a fixed nonce would make the XOR of the ciphertexts the XOR of the plaintexts
        int equalBytes = 0;
        for (int i = SubChunkCipher.NONCE_LENGTH; i < SubChunkCipher.NONCE_LENGTH + p.length; i++) {
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
        for (int at : new int[] {0, SubChunkCipher.NONCE_LENGTH + 10, sealed.length - 1}) {
            byte[] bad = sealed.clone();
            bad[at] ^= 0x40;
            assertThatThrownBy(() -> c.open(key(1), bad, 0, bad.length))
                    .isInstanceOf(ChunkIntegrityException.class).as("byte " + at);
        }
        assertThatThrownBy(() -> c.open(key(2), sealed, 0, sealed.length)).isInstanceOf(ChunkIntegrityException.class);
        assertThatThrownBy(() -> c.open(key(1), sealed, 0, sealed.length - 1))
                .isInstanceOf(ChunkIntegrityException.class);
        assertThatThrownBy(() -> c.open(key(1), sealed, 0, 20)).isInstanceOf(ChunkIntegrityException.class)
                .hasMessageContaining("fewer than");
    }

    @Test
    void emptySubChunkRoundTrips() throws Exception {
        SubChunkCipher c = cipher(7);
        byte[] sealed = c.seal(key(1), new byte[0], 0, 0);
        assertThat(sealed).hasSize(SubChunkCipher.OVERHEAD);
        assertThat(c.open(key(1), sealed, 0, sealed.length)).isEmpty();
    }
}

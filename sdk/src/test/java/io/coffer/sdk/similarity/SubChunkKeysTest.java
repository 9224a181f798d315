package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkKey;
import org.junit.jupiter.api.Test;

class SubChunkKeysTest {

    /**
     * The ids of two sub-chunk keys as the first implementation derived them (values computed with it, before keyFor
     * became one doFinal over label and hash): compact manifests store only the cluster key and the hash, so a
     * change here would make every layer-mode object written before unreadable.
     */
    @Test
    void keysStayThoseOfTheFirstImplementationAcrossCalls() {
        byte[] k = new byte[32];
        byte[] h = new byte[32];
        for (int i = 0; i < 32; i++) {
            k[i] = (byte) (7 * i);
            h[i] = (byte) (100 + i);
        }
        SubChunkKeys keys = new SubChunkKeys(ChunkKey.of(k));
        byte[] other = h.clone();
        other[0] = 1;
        for (int pass = 0; pass < 2; pass++) {
            assertThat(ChunkCipher.idOf(keys.keyFor(h)).toHex())
                    .isEqualTo("bc8a2a52a0be440537fcfd1b2a9d536d5c621ae83a454de668720f9280715c4b");
            assertThat(ChunkCipher.idOf(keys.keyFor(other)).toHex())
                    .isEqualTo("3280835c37be6bce5f48e57c4ad993a0003c848f0e27e8a747e8e9e5bcedf10f");
        }
    }

    @Test
    void aHashOfAnotherLengthIsRefused() {
        SubChunkKeys keys = new SubChunkKeys(ChunkKey.random());
        assertThatThrownBy(() -> keys.keyFor(new byte[31])).isInstanceOf(IllegalArgumentException.class);
    }
}

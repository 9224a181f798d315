package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A rotated key seals under itself, opens what earlier keys sealed, and keeps the first key's names and secrets. */
class MasterKeyringTest {
    private static final byte[] TEXT = "a manifest".getBytes(StandardCharsets.UTF_8);

    @Test
    void aKeyWithAKeyringOpensValuesSealedUnderEarlierKeysAndSealsUnderItself() throws Exception {
        MasterKey first = MasterKey.random();
        MasterKey second = MasterKey.random();
        byte[] old = first.seal("manifest", "m/ab/x", TEXT);
        MasterKey ring = second.withKeyring(first, List.of(first));

        assertThat(ring.open("manifest", "m/ab/x", old)).isEqualTo(TEXT);
        byte[] fresh = ring.seal("manifest", "m/ab/y", TEXT);
        assertThat(MasterKey.sealedKeyIdHex(fresh)).isEqualTo(second.keyIdHex());
        assertThat(second.open("manifest", "m/ab/y", fresh)).isEqualTo(TEXT);
        assertThatThrownBy(() -> first.open("manifest", "m/ab/y", fresh))
                .isInstanceOf(ChunkIntegrityException.class).hasMessageContaining(second.keyIdHex());
        // the name binding still holds for values opened through the keyring
        assertThatThrownBy(() -> ring.open("manifest", "m/ab/z", old)).isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void namesAndDerivedSecretsComeFromTheStoresFirstKey() {
        MasterKey first = MasterKey.random();
        MasterKey second = MasterKey.random();
        MasterKey ring = second.withKeyring(first, List.of(first));

        assertThat(ring.blindName("bucket", "photos")).isEqualTo(first.blindName("bucket", "photos"))
                .isNotEqualTo(second.blindName("bucket", "photos"));
        assertThat(ring.deriveSecret("chunk-seal")).isEqualTo(first.deriveSecret("chunk-seal"));
        assertThat(ring.rootKeyIdHex()).isEqualTo(first.keyIdHex());
        assertThat(ring.keyIdHex()).isEqualTo(second.keyIdHex());
    }

    @Test
    void aWrappedKeyUnwrapsOnlyUnderItsNameAndWrappingKey() throws Exception {
        MasterKey old = MasterKey.random();
        MasterKey next = MasterKey.random();
        byte[] wrapped = next.wrap("k/previous/a/b", old);

        assertThat(next.unwrap("k/previous/a/b", wrapped).keyIdHex()).isEqualTo(old.keyIdHex());
        assertThatThrownBy(() -> next.unwrap("k/previous/a/c", wrapped)).isInstanceOf(ChunkIntegrityException.class);
        assertThatThrownBy(() -> MasterKey.random().unwrap("k/previous/a/b", wrapped))
                .isInstanceOf(ChunkIntegrityException.class);
    }

    @Test
    void aRootOutsideTheKeyringIsRefused() {
        MasterKey second = MasterKey.random();
        assertThatThrownBy(() -> second.withKeyring(MasterKey.random(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in the keyring");
    }
}

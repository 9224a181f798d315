package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend's key check: a store knows its master key, a gateway with another key (or none, beside a store that
 * exists) is refused with the key ids named, and a new store is made only on an empty backend or when asked.
 */
class KeyCheckTest {
    private static final String CHECK = "k/check";

    @TempDir
    Path dir;

    @BeforeEach
    void newStore() {
        store = new KeyTestStore(dir);
    }

    private KeyTestStore store;

    @Test
    void aNewStoreOnAnEmptyBackendGetsAKeyCheckSealedUnderItsKey() throws Exception {
        MasterKey key = MasterKey.random();
        store.open(key, b -> { }).close();

        byte[] sealed = store.blobs.read(CHECK, 0, (int) store.blobs.head(CHECK).orElseThrow().size());
        assertThat(MasterKey.sealedKeyIdHex(sealed)).isEqualTo(key.keyIdHex());
        KeyCheckRecord check = KeyCheckRecord.open(key, sealed);
        assertThat(check.keyId()).isEqualTo(key.keyIdHex());
        assertThat(check.rootKeyId()).isEqualTo(key.keyIdHex());
        assertThat(check.previousKeyIds()).isEmpty();
    }

    @Test
    void aGatewayWithAnotherKeyIsRefusedWithBothKeyIdsNamedAndNeitherKey() throws Exception {
        MasterKey key = MasterKey.random();
        writeOneObject(key);
        byte[] raw = TestData.bytes(3, MasterKey.KEY_LENGTH);
        MasterKey other = MasterKey.of(raw);

        assertThatThrownBy(() -> store.open(other, b -> { }).close()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("master key " + other.keyIdHex() + " is not the key of the store")
                .hasMessageContaining("expects master key " + key.keyIdHex())
                .message().doesNotContain(Base64.getEncoder().encodeToString(raw))
                .doesNotContain(HexFormat.of().formatHex(raw));
        // the store is untouched: its own key still reads it
        assertReadsBack(key);
    }

    @Test
    void aDataDirectoryWithoutAMasterKeyBesideAStoreIsRefusedAndNoKeyIsMade() throws Exception {
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");
        try (MetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("shared.db"));
             Coffer c = Coffer.builder().directory(first).blobStore(store.blobs).metadataStore(meta).build()) {
            c.createBucket("bkt", "t");
        }

        try (MetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("shared.db"))) {
            assertThatThrownBy(() -> Coffer.builder().directory(second).blobStore(store.blobs).metadataStore(meta)
                    .build()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no master key").hasMessageContaining("--master-key FILE");
        }
        assertThat(second.resolve("master.key")).doesNotExist();

        // the same data directory given the store's key file opens it
        try (MetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("shared.db"));
             Coffer c = Coffer.builder().directory(second).blobStore(store.blobs).metadataStore(meta)
                     .masterKey(MasterKey.load(first.resolve("master.key"))).build()) {
            assertThat(c.headBucket("bkt").name()).isEqualTo("bkt");
        }
    }

    @Test
    void aStoreMadeBeforeKeyChecksGetsOneFromTheKeyThatOpensItsRecords() throws Exception {
        MasterKey key = MasterKey.random();
        writeOneObject(key);
        store.blobs.delete(CHECK);
        MasterKey other = MasterKey.random();

        assertThatThrownBy(() -> store.open(other, b -> { }).close()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expects master key " + key.keyIdHex()).hasMessageContaining("read from b/");
        assertThat(store.blobs.head(CHECK)).isEmpty();

        assertReadsBack(key);
        byte[] sealed = store.blobs.read(CHECK, 0, (int) store.blobs.head(CHECK).orElseThrow().size());
        assertThat(KeyCheckRecord.open(key, sealed).rootKeyId()).isEqualTo(key.keyIdHex());
    }

    @Test
    void aBackendHoldingOtherDataBecomesAStoreOnlyWithInit() throws Exception {
        store.blobs.put("backup/notes.txt", BlobContent.of(new byte[] {1, 2, 3}));
        MasterKey key = MasterKey.random();

        assertThatThrownBy(() -> store.open(key, b -> { }).close()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not empty").hasMessageContaining("--init");
        assertThat(store.blobs.head(CHECK)).isEmpty();

        store.open(key, b -> b.init(true)).close();
        assertThat(store.blobs.head(CHECK)).isPresent();
        // once a store has a key check, init does not make it anew under another key
        assertThatThrownBy(() -> store.open(MasterKey.random(), b -> b.init(true)).close())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("expects master key "
                        + key.keyIdHex());
    }

    @Test
    void aReadOnlyOpenChecksTheKeyAndWritesNothing() throws Exception {
        MasterKey key = MasterKey.random();
        store.open(key, b -> b.readOnlyBackend(true)).close();
        assertThat(store.blobs.list("").toList()).extracting(BlobInfo::name).doesNotContain(CHECK);

        writeOneObject(key);
        assertThatThrownBy(() -> store.open(MasterKey.random(), b -> b.readOnlyBackend(true)).close())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(key.keyIdHex());
    }

    @Test
    void anAlteredKeyCheckIsRefused() throws Exception {
        MasterKey key = MasterKey.random();
        store.open(key, b -> { }).close();
        byte[] sealed = store.blobs.read(CHECK, 0, (int) store.blobs.head(CHECK).orElseThrow().size());
        sealed[sealed.length - 20] ^= 1;
        store.blobs.put(CHECK, BlobContent.of(sealed));

        assertThatThrownBy(() -> store.open(key, b -> { }).close()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("failed its integrity check");
    }

    private void writeOneObject(MasterKey key) throws Exception {
        try (Coffer c = store.open(key, b -> { })) {
            c.createBucket("bkt", "t");
            c.putObject(PutObjectRequest.of("bkt", "k", 70_000), TestData.stream(1, 70_000));
        }
    }

    private void assertReadsBack(MasterKey key) throws Exception {
        try (Coffer c = store.open(key, b -> { }); ObjectContent content = c.getObject("bkt", "k")) {
            assertThat(content.stream().readAllBytes()).isEqualTo(TestData.stream(1, 70_000).readAllBytes());
        }
    }
}

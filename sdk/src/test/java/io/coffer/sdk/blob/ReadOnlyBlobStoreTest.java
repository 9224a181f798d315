package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read parts of the contract over {@link ReadOnlyBlobStore} (the tests write to the store beneath the view and
 * read through it), its refusal of every write, and fsck over a backend opened read-only.
 */
class ReadOnlyBlobStoreTest extends BlobStoreContractTest {

    @TempDir
    Path dir;

    private MemoryBlobStore beneath;

    @Override
    protected BlobStore createStore() {
        beneath = new MemoryBlobStore("test");
        return new ReadOnlyBlobStore(beneath);
    }

    @Override
    protected BlobStore writer() {
        return beneath;
    }

    @Test
    void everyWriteIsRefusedAndChangesNothing() throws IOException {
        beneath.put("p/a", BlobContent.of(new byte[] {1, 2, 3}));

        assertThatThrownBy(() -> store.put("p/a", BlobContent.of(new byte[] {9})))
                .isInstanceOf(ReadOnlyBlobStoreException.class)
                .hasMessage("put p/a refused: read-only(memory:test) is open read-only");
        assertThatThrownBy(() -> store.put("p/new", BlobContent.of(new byte[] {9})))
                .isInstanceOf(ReadOnlyBlobStoreException.class);
        assertThatThrownBy(() -> store.delete("p/a")).isInstanceOf(ReadOnlyBlobStoreException.class)
                .hasMessageContaining("delete p/a refused");

        assertThat(beneath.read("p/a", 0, 3)).containsExactly(1, 2, 3);
        assertThat(names("")).containsExactly("p/a");
    }

    @Test
    void folderHintsCreateNothing() throws IOException {
        Path root = dir.resolve("blobs");
        try (BlobStore view = new ReadOnlyBlobStore(new DirectoryBlobStore(root))) {
            view.prepareFolders(List.of("packs/", "manifests/"));
        }

        try (Stream<Path> entries = Files.list(root)) {
            assertThat(entries.map(p -> p.getFileName().toString())).doesNotContain("packs", "manifests");
        }
    }

    @Test
    void fsckReadsEverythingThroughAReadOnlyBackendAndWritesNothing() throws IOException {
        MemoryBlobStore backend = new MemoryBlobStore("backend");
        MasterKey key = MasterKey.loadOrCreate(dir.resolve("master.key"));
        try (Coffer writer = Coffer.builder().blobStore(backend).masterKey(key)
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))).build()) {
            writer.createBucket("bkt", "me");
            writer.putObject(PutObjectRequest.of("bkt", "small", 100), TestData.stream(1, 100));
            writer.putObject(PutObjectRequest.of("bkt", "large", 3_000_000), TestData.stream(2, 3_000_000));
        }
        List<BlobInfo> before = backend.list("").toList();

        try (Coffer auditor = Coffer.builder().blobStore(new ReadOnlyBlobStore(backend)).masterKey(key)
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))).build()) {
            FsckReport report = auditor.fsck(true);

            assertThat(report.damaged()).isEmpty();
            assertThat(report.objectsChecked()).isEqualTo(2);
            assertThat(report.bytesRead()).isGreaterThan(3_000_000);
            assertThatThrownBy(() -> auditor.createBucket("other", "me")).isInstanceOf(CofferException.class);
        }
        assertThat(backend.list("").toList()).isEqualTo(before);
    }
}

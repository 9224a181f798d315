package io.coffer.sdk.engine;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.meta.MetadataStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/** An engine on a directory backend and SQLite under one temp dir, with handles on both stores for assertions. */
final class TestEngine implements AutoCloseable {
    final Path dir;
    final BlobStore blobs;
    final MetadataStore meta;
    final MasterKey masterKey;
    final Coffer coffer;

    private TestEngine(Path dir, Consumer<CofferBuilder> options) throws IOException {
        this.dir = dir;
        this.blobs = new DirectoryBlobStore(dir.resolve("blobs"));
        this.meta = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"));
        this.masterKey = MasterKey.loadOrCreate(dir.resolve("master.key"));
        CofferBuilder b = Coffer.builder().blobStore(blobs).metadataStore(meta).masterKey(masterKey);
        options.accept(b);
        this.coffer = b.build();
    }

    static TestEngine open(Path dir) throws IOException {
        return open(dir, b -> { });
    }

    static TestEngine open(Path dir, Consumer<CofferBuilder> options) throws IOException {
        return new TestEngine(dir, options);
    }

    /** Total bytes of every blob on the backend. */
    long backendBytes() throws IOException {
        return blobs().stream().mapToLong(BlobInfo::size).sum();
    }

    /**
     * Collects garbage once the clock has left the millisecond of the last release or retirement: a chunk released
     * (or a pack retired) in the cutoff's millisecond still counts as live, so with a zero grace period a collection
     * in the same millisecond as the delete before it finds nothing.
     */
    GcReport collectGarbage() throws InterruptedException {
        Thread.sleep(5);
        return coffer.collectGarbage();
    }

    List<BlobInfo> blobs() throws IOException {
        return blobs.list("").toList();
    }

    @Override
    public void close() {
        coffer.close();
    }
}

package io.coffer.sdk.engine;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Engines over one in-memory backend (kept across the engines a test opens: closing one does not clear it) and one
 * SQLite file in {@code dir}, each opened with the master key given, for the key-check and rotation tests.
 */
final class KeyTestStore {
    final MemoryBlobStore blobs = new MemoryBlobStore();
    private final Path dir;

    KeyTestStore(Path dir) {
        this.dir = dir;
    }

    /** An engine under {@code key}; the metadata store is closed when the open fails. */
    Coffer open(MasterKey key, Consumer<CofferBuilder> options) {
        JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"));
        CofferBuilder b = Coffer.builder().blobStore(blobs).metadataStore(meta).masterKey(key);
        options.accept(b);
        try {
            return b.build();
        } catch (RuntimeException e) {
            meta.close();
            throw e;
        }
    }
}

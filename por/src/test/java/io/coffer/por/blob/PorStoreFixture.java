package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * A PoR pack store as the gateway builds it, with every part real: {@link PorBlobStore} over a
 * {@link MemoryBlobStore}, its map in a SQLite {@link JdbcMetadataStore}, an honest {@link MemoryPorServer} (whose
 * storage tests damage in place) and a state backup file.
 */
public final class PorStoreFixture implements AutoCloseable {
    public final MemoryBlobStore inner = new MemoryBlobStore("inner");
    public final MemoryPorServer server;
    public final MasterKey key;
    public final Path dir;
    public JdbcMetadataStore metadata;
    public PorBlobStore store;
    /** The packs {@link #put} wrote, by name. */
    final Map<String, byte[]> packs = new LinkedHashMap<>();

    private PorStoreFixture(Path dir, MemoryPorServer server, MasterKey key) {
        this.dir = dir;
        this.server = server;
        this.key = key;
    }

    /** A fresh store of 2^k blocks of {@code blockBytes}, 2^b blocks per H add. */
    public static PorStoreFixture open(Path dir, int k, int b, int blockBytes) throws IOException {
        return open(dir, k, b, blockBytes, PorBlobStore.PREPARED_BUDGET_BYTES);
    }

    /** As above, with at most {@code preparedBudget} bytes of packs read before the store's lock (0: none). */
    static PorStoreFixture open(Path dir, int k, int b, int blockBytes, long preparedBudget) throws IOException {
        return open(dir, k, b, blockBytes, preparedBudget, Math.max(k, ServerParameters.MAX_K));
    }

    /** As above, over a server that grows up to 2^maxK blocks. */
    static PorStoreFixture open(Path dir, int k, int b, int blockBytes, long preparedBudget, int maxK)
            throws IOException {
        PorStoreFixture f = new PorStoreFixture(dir, new MemoryPorServer(k, b, blockBytes, maxK), MasterKey.random());
        f.metadata = JdbcMetadataStore.sqlite(dir.resolve("meta.db"));
        f.store = PorBlobStore.open(f.inner, f.metadata.blockMap(), f.server, f.key, f.backup(), new SecureRandom(),
                preparedBudget);
        return f;
    }

    /** Puts {@code length} random bytes (from {@code seed}) as pack {@code name}, kept in {@link #packs}. */
    void put(PorBlobStore into, String name, int length, long seed) throws IOException {
        byte[] content = new byte[length];
        new Random(seed).nextBytes(content);
        into.put(name, BlobContent.of(content));
        packs.put(name, content);
    }

    /** Every pack put through {@link #put} reads back, and an audit passes. */
    void assertEveryPackReadsBack(PorBlobStore from) throws IOException {
        for (Map.Entry<String, byte[]> e : packs.entrySet()) {
            assertThat(from.read(e.getKey(), 0, e.getValue().length)).as(e.getKey()).isEqualTo(e.getValue());
        }
        PorAuditReport audit = from.audit();
        assertThat(audit.passed()).as(audit.detail()).isTrue();
    }

    public Path backup() {
        return dir.resolve("por-client.state");
    }

    /** Opens the store again over the same server with the metadata database in {@code file}. */
    public PorBlobStore reopen(Path file) throws IOException {
        metadata.close();
        metadata = JdbcMetadataStore.sqlite(file);
        store = PorBlobStore.open(inner, metadata.blockMap(), server, key, backup(), new SecureRandom());
        return store;
    }

    /** Opens the store again over {@code over} (a wrapper of {@link #server}) with the same metadata database. */
    PorBlobStore reopen(PorServer over) throws IOException {
        store = PorBlobStore.open(inner, metadata.blockMap(), over, key, backup(), new SecureRandom());
        return store;
    }

    @Override
    public void close() throws IOException {
        try {
            store.close();
        } finally {
            metadata.close();
        }
    }
}

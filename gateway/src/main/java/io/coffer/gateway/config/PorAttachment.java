package io.coffer.gateway.config;

import io.coffer.gateway.por.PorControl;
import io.coffer.por.blob.PorAuditReport;
import io.coffer.por.blob.PorBlobStore;
import io.coffer.por.blob.PorConsolidationReport;
import io.coffer.por.blob.PorRepairReport;
import io.coffer.por.server.PorServer;
import io.coffer.sdk.BackendDecorator;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.MetadataStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * Puts a store's packs under PoR: the backend decorator that opens the PoR server the settings name and the
 * {@link PorBlobStore} over it (block map and client state in the metadata store, the state's backup in
 * {@code DATA/por/client.state}), and the gateway's {@link PorControl} over that store once the engine is built.
 */
final class PorAttachment implements BackendDecorator {
    /** The engine's pack names (docs/FORMAT.md): what the PoR store keeps in U. */
    private static final String PACKS = "p/";
    private final PorSettings settings;
    private final Path dataDir;
    private PorBlobStore store;

    PorAttachment(PorSettings settings, Path dataDir) {
        this.settings = settings;
        this.dataDir = dataDir;
    }

    /**
     * Opens the PoR server and the store over it. Failures are unchecked with their own message (the builder would
     * report a checked one as the data directory's). A store whose packs are already on the backend without PoR is
     * refused: the PoR store would not find them.
     */
    @Override
    public BlobStore decorate(BlobStore backend, MetadataStore metadata, MasterKey key) {
        Path backup = PorSettings.clientStateBackup(dataDir);
        try {
            if (metadata.blockMap().state().isEmpty() && !Files.exists(backup)) {
                try (BlobListing packs = backend.list(PACKS)) {
                    if (packs.iterator().hasNext()) {
                        throw new IllegalStateException("the store in " + dataDir.toAbsolutePath() + " has packs on"
                                + " its backend outside PoR: PoR can be enabled only on a new store");
                    }
                }
            }
            Files.createDirectories(backup.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the PoR store: " + e.getMessage(), e);
        }
        PorServer server = PorServers.open(settings, dataDir);
        try {
            store = PorBlobStore.open(backend, metadata.blockMap(), server, key, backup, new SecureRandom());
        } catch (IOException e) {
            closeQuietly(server, e);
            throw new UncheckedIOException(e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(server, e);
            throw e;
        }
        return store;
    }

    /** Closes the PoR store (and the server and backend under it) where the engine failed to open over it. */
    void closeAfterFailure(Throwable cause) {
        if (store != null) {
            try {
                store.close();
            } catch (IOException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }

    private static void closeQuietly(PorServer server, Exception cause) {
        if (server instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                cause.addSuppressed(e);
            }
        }
    }

    /** The operations of the store {@link #decorate} opened. */
    PorControl control() {
        PorBlobStore s = store;
        if (s == null) {
            throw new IllegalStateException("the engine did not open its backend through the PoR store");
        }
        return new PorControl() {
            @Override
            public PorAuditReport audit() {
                return s.audit();
            }

            @Override
            public PorRepairReport repair() {
                try {
                    return s.repair();
                } catch (IOException e) {
                    throw new UncheckedIOException("PoR repair failed: " + e.getMessage(), e);
                }
            }

            @Override
            public PorConsolidationReport consolidate() {
                try {
                    return s.consolidate(settings.k()); // never below the initial capacity, --por-k
                } catch (IOException e) {
                    throw new UncheckedIOException("PoR consolidation failed: " + e.getMessage(), e);
                }
            }

            @Override
            public int blocksUsed() {
                return s.blocksUsed();
            }

            @Override
            public int capacity() {
                return s.capacity();
            }

            @Override
            public long blocksRepairedOnRead() {
                return s.blocksRepairedOnRead();
            }
        };
    }
}

package io.coffer.gateway.config;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.blob.S3BlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.sdk.key.OprfKeySource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Opens the engine a configuration describes: data directory, backend (dir or s3), metadata (SQLite or PostgreSQL)
 * and key source (the embedded OPRF, or a remote key server). The data directory holds the master key unless the
 * {@code master-key} setting names a file elsewhere (several gateways of one store share that file); either way it is
 * what the engine locks while open (docs/OPERATIONS.md), whatever the backend and metadata store.
 */
public final class EngineOpener {
    private EngineOpener() {
    }

    /** For {@code serve}: creates the store (data directory, master key, SQLite file) on first start. */
    public static Coffer open(GatewayConfig c, MeterRegistry meters) {
        return openStore(c, meters).coffer();
    }

    /**
     * For {@code serve}: creates the store (data directory, master key, SQLite file, key check) on first start, which
     * is a start on an empty backend and metadata store or, with {@code init}, one on a backend that holds other data;
     * with the PoR client's operations where {@code por} is on.
     */
    public static OpenStore openStore(GatewayConfig c, MeterRegistry meters, boolean init) {
        return open(c, meters, true, false, b -> b.init(init));
    }

    /** {@link #openStore(GatewayConfig, MeterRegistry, boolean)} without {@code init}. */
    public static OpenStore openStore(GatewayConfig c, MeterRegistry meters) {
        return openStore(c, meters, false);
    }

    /**
     * For {@code rotate-master-key}: opens the existing store with its current key and makes the key in
     * {@code newKeyFile} (made, mode 0600, if absent) its master key (docs/SECURITY.md, "Key rotation"). Returns the
     * new key's id.
     */
    public static String rotateKey(GatewayConfig c, Path newKeyFile) {
        checkStoreExists(c, true);
        MasterKey next;
        try {
            next = MasterKey.loadOrCreate(newKeyFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the new master key file " + newKeyFile + ": "
                    + e.getMessage(), e);
        }
        open(c, null, false, false, b -> b.rotateMasterKeyTo(next)).coffer().close();
        return next.keyIdHex();
    }

    /**
     * For the offline verbs: opens only an existing store (the data directory holds {@code master.key}). With
     * {@code metadataMustExist}, a SQLite metadata file must exist too: fsck and gc on a store whose metadata is lost
     * would see every backend blob as an orphan (and gc would delete them); reindex is what rebuilds it. With
     * {@code readOnlyBackend}, the engine never writes or deletes on the backend (for fsck).
     */
    public static Coffer openExisting(GatewayConfig c, boolean metadataMustExist, boolean readOnlyBackend) {
        return openExistingStore(c, metadataMustExist, readOnlyBackend).coffer();
    }

    /** As {@link #openExisting}, with the PoR client's operations where {@code por} is on. */
    public static OpenStore openExistingStore(GatewayConfig c, boolean metadataMustExist, boolean readOnlyBackend) {
        checkStoreExists(c, metadataMustExist);
        return open(c, null, false, readOnlyBackend, b -> { });
    }

    /**
     * For {@code reindex --dry-run}: the existing store with a read-only backend and, in place of its metadata store,
     * the empty SQLite file {@code scratchDb}, which a reindex fills and the caller deletes.
     */
    public static Coffer openWithScratchMetadata(GatewayConfig c, Path scratchDb) {
        checkStoreExists(c, false);
        return open(c, null, false, true, b -> b.metadataStore(JdbcMetadataStore.sqlite(scratchDb))).coffer();
    }

    private static void checkStoreExists(GatewayConfig c, boolean metadataMustExist) {
        String metadata = c.get(ConfigKey.METADATA);
        Path sqlite = metadata == null ? c.dataDir().resolve("coffer.db")
                : metadata.startsWith("jdbc:") ? null : Path.of(metadata);
        if (c.get(ConfigKey.MASTER_KEY) != null) {
            if (!Files.isRegularFile(Path.of(c.get(ConfigKey.MASTER_KEY)))) {
                throw new IllegalStateException("master key file " + c.get(ConfigKey.MASTER_KEY) + " does not exist");
            }
        } else if (!Files.isRegularFile(c.dataDir().resolve("master.key"))) {
            throw new IllegalStateException("no Coffer store in " + c.dataDir().toAbsolutePath() + " (no master.key"
                    + " there): give the data directory of an existing store, or its key file (--master-key FILE);"
                    + " `coffer serve` creates one on first start");
        }
        if (metadataMustExist && sqlite != null && !Files.isRegularFile(sqlite)) {
            throw new IllegalStateException("no metadata in " + sqlite.toAbsolutePath() + ": `coffer reindex` rebuilds"
                    + " it from the backend");
        }
    }

    private static OpenStore open(GatewayConfig c, MeterRegistry meters, boolean create, boolean readOnlyBackend,
                                  Consumer<CofferBuilder> options) {
        PorSettings por = c.porSettings();
        Path porState = PorSettings.clientStateBackup(c.dataDir());
        if (!por.enabled() && Files.exists(porState)) {
            // its packs are in U: opened without PoR, the engine would find none of them (and gc would misjudge)
            throw new IllegalStateException("the store in " + c.dataDir().toAbsolutePath() + " keeps its packs"
                    + " under proofs of retrievability (" + porState + " exists): give --por embedded or --por"
                    + " HOST:PORT (COFFER_POR) as for serve");
        }
        CofferBuilder b = Coffer.builder().directory(c.dataDir()).createIfMissing(create).readOnlyBackend(readOnlyBackend)
                .dedupPolicy(c.dedupPolicy()).compression(c.compressionPolicy())
                .layers(c.layerModePolicy()).gcGrace(c.gcGrace());
        if (c.get(ConfigKey.MASTER_KEY) != null) {
            b.masterKeyFile(Path.of(c.get(ConfigKey.MASTER_KEY)));
        }
        if (meters != null) {
            b.meterRegistry(meters);
        }
        if (c.get(ConfigKey.BACKEND).equals("s3")) {
            S3BlobStore.Builder s3 = S3BlobStore.builder().bucket(c.get(ConfigKey.S3_BUCKET))
                    .region(c.get(ConfigKey.S3_REGION)).pathStyleAccess(c.boolValue(ConfigKey.S3_PATH_STYLE))
                    .signPayloadOverHttp(c.boolValue(ConfigKey.S3_SIGN_PAYLOAD));
            if (c.get(ConfigKey.S3_ENDPOINT) != null) {
                s3.endpoint(URI.create(c.get(ConfigKey.S3_ENDPOINT)));
            }
            if (c.get(ConfigKey.BACKEND_ACCESS_KEY) != null && c.get(ConfigKey.BACKEND_SECRET_KEY) != null) {
                s3.credentials(c.get(ConfigKey.BACKEND_ACCESS_KEY), c.get(ConfigKey.BACKEND_SECRET_KEY));
            } else {
                s3.defaultCredentials();
            }
            b.blobStore(s3.build());
        }
        if (c.remoteKeyServer()) {
            b.keySource(OprfKeySource.remote(keyServerClient(c)))
                    .keySourcePause(Duration.ofMillis(c.intValue(ConfigKey.KEYSERVER_PAUSE_MS)));
        }
        String metadata = c.get(ConfigKey.METADATA);
        if (metadata != null) {
            if (metadata.startsWith("jdbc:postgresql:")) {
                b.metadataStore(JdbcMetadataStore.postgres(metadata, c.get(ConfigKey.METADATA_USER),
                        c.get(ConfigKey.METADATA_PASSWORD)));
            } else {
                b.metadataStore(JdbcMetadataStore.sqlite(Path.of(metadata)));
            }
        }
        options.accept(b); // after the settings: an option may replace one (the scratch metadata of a dry run)
        if (!por.enabled()) {
            return new OpenStore(b.build(), Optional.empty());
        }
        PorAttachment attachment = new PorAttachment(por, c.dataDir());
        b.decorateBackend(attachment);
        Coffer coffer;
        try {
            coffer = b.build();
        } catch (RuntimeException | Error e) {
            attachment.closeAfterFailure(e);
            throw e;
        }
        return new OpenStore(coffer, Optional.of(attachment.control()));
    }

    /**
     * The key-server client a configuration describes: explicit PEM files, or else those of a key-server directory
     * ({@code ca.crt}, {@code clients/NAME.crt} and {@code .key}, the current {@code oprf/KEYID.pub}).
     */
    static KeyServerClient keyServerClient(GatewayConfig c) {
        KeyServerDirectory dir = c.get(ConfigKey.KEYSERVER_DIR) == null ? null
                : new KeyServerDirectory(Path.of(c.get(ConfigKey.KEYSERVER_DIR)));
        String client = c.get(ConfigKey.KEYSERVER_CLIENT);
        try {
            Path cert = file(c, ConfigKey.KEYSERVER_CERT, dir == null ? null : dir.clientCertificate(client));
            Path key = file(c, ConfigKey.KEYSERVER_KEY, dir == null ? null : dir.clientKey(client));
            Path ca = file(c, ConfigKey.KEYSERVER_CA, dir == null ? null : dir.caCertificate());
            Path publicKey = c.get(ConfigKey.KEYSERVER_PUBLIC_KEY) != null
                    ? Path.of(c.get(ConfigKey.KEYSERVER_PUBLIC_KEY)) : dir.oprfPublicKey(dir.currentKeyId());
            return KeyServerClient.builder().host(c.keyServerHost()).httpsPort(c.keyServerPort())
                    .transport(c.get(ConfigKey.KEYSERVER_TRANSPORT).equals("v1") ? KeyServerClient.Transport.V1
                            : KeyServerClient.Transport.V2)
                    .credentials(cert, key, ca).publicKey(publicKey)
                    .timeout(Duration.ofMillis(c.intValue(ConfigKey.KEYSERVER_TIMEOUT_MS))).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the key-server client files: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("invalid key-server client files: " + e.getMessage(), e);
        }
    }

    private static Path file(GatewayConfig c, ConfigKey k, Path fromDirectory) {
        return c.get(k) != null ? Path.of(c.get(k)) : fromDirectory;
    }
}

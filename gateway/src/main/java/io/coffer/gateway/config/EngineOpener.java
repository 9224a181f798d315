package io.coffer.gateway.config;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.blob.S3BlobStore;
import io.coffer.sdk.meta.JdbcMetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.nio.file.Path;

/** Opens the engine a configuration describes: data directory, backend (dir or s3) and metadata (SQLite or PostgreSQL). */
public final class EngineOpener {
    private EngineOpener() {
    }

    public static Coffer open(GatewayConfig c, MeterRegistry meters) {
        CofferBuilder b = Coffer.builder().directory(c.dataDir());
        if (meters != null) {
            b.meterRegistry(meters);
        }
        if (c.get(ConfigKey.BACKEND).equals("s3")) {
            S3BlobStore.Builder s3 = S3BlobStore.builder().bucket(c.get(ConfigKey.S3_BUCKET))
                    .region(c.get(ConfigKey.S3_REGION)).pathStyleAccess(c.boolValue(ConfigKey.S3_PATH_STYLE));
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
        String metadata = c.get(ConfigKey.METADATA);
        if (metadata != null) {
            if (metadata.startsWith("jdbc:postgresql:")) {
                b.metadataStore(JdbcMetadataStore.postgres(metadata, c.get(ConfigKey.METADATA_USER),
                        c.get(ConfigKey.METADATA_PASSWORD)));
            } else {
                b.metadataStore(JdbcMetadataStore.sqlite(Path.of(metadata)));
            }
        }
        return b.build();
    }
}

package io.coffer.sdk.engine;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.chunk.ChunkerSpec;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.PostgresServer;
import io.coffer.sdk.testing.S3ServerFixture;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/** Round trips on a shared deployment: an S3 backend (s3proxy, in-process) and a real PostgreSQL server. */
class S3PostgresRoundTripTest extends EngineRoundTripTest {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    @Override
    Coffer open(Path dir, ChunkerSpec chunker) throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        PostgresServer pg = PostgresServer.get();
        String db = pg.createDatabase("roundtrip_" + DATABASES.incrementAndGet());
        return Coffer.builder()
                .blobStore(s3.newStore())
                .metadataStore(JdbcMetadataStore.postgres(db, pg.user(), pg.password()))
                .masterKey(MasterKey.random())
                .chunker(chunker.newChunker())
                .build();
    }
}

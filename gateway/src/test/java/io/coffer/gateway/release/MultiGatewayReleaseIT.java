package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.testing.PostgresServer;
import io.coffer.sdk.testing.S3ServerFixture;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Two {@code ./coffer serve} processes (the packaged launcher, each with a data directory of its own) on one S3
 * backend (s3proxy in the test JVM) and one PostgreSQL database, given the same {@code --master-key} file: each reads
 * what the other wrote. A third, given another key file, refuses to start with both key ids named.
 */
class MultiGatewayReleaseIT {
    private static final int LARGE = 3 << 20;

    @TempDir
    Path scratch;

    @Test
    void twoGatewaysWithOneKeyFileShareAStoreAndAGatewayWithAnotherKeyRefusesToStart() throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        PostgresServer pg = PostgresServer.get();
        String database = pg.createDatabase("multigw_" + ProcessHandle.current().pid());
        Path keyFile = scratch.resolve("keys/master.key");
        List<String> shared = List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(),
                "--s3-bucket", s3.createBucket(), "--s3-path-style", "--metadata", database);
        Map<String, String> env = Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(),
                "COFFER_BACKEND_SECRET_KEY", s3.secretKey(), "COFFER_METADATA_USER", pg.user(),
                "COFFER_METADATA_PASSWORD", pg.password());
        byte[] large = new byte[LARGE];
        new Random(7).nextBytes(large);

        // the first start on the empty bucket and database makes the store and the key file
        try (ShippedGateway a = ShippedGateway.start(Files.createDirectory(scratch.resolve("a")),
                with(shared, "--master-key", keyFile.toString()), env)) {
            assertThat(keyFile).isRegularFile();
            assertThat(scratch.resolve("a/data/master.key")).doesNotExist();
            try (ShippedGateway b = ShippedGateway.start(Files.createDirectory(scratch.resolve("b")),
                    with(shared, "--master-key", keyFile.toString()), env);
                 S3Client viaA = client(a.endpoint());
                 S3Client viaB = client(b.endpoint())) {
                viaA.createBucket(r -> r.bucket("shared"));
                viaA.putObject(r -> r.bucket("shared").key("from-a"), RequestBody.fromBytes(large));
                viaB.putObject(r -> r.bucket("shared").key("from-b"), RequestBody.fromString("written by b"));

                assertThat(viaB.getObjectAsBytes(r -> r.bucket("shared").key("from-a")).asByteArray())
                        .isEqualTo(large);
                assertThat(viaA.getObjectAsBytes(r -> r.bucket("shared").key("from-b")).asUtf8String())
                        .isEqualTo("written by b");
                assertThat(viaB.listObjectsV2(r -> r.bucket("shared")).contents()).extracting(S3Object::key)
                        .containsExactly("from-a", "from-b");
            }
        }

        Path otherKey = scratch.resolve("other.key");
        String otherId = MasterKey.loadOrCreate(otherKey).keyIdHex();
        String storeId = MasterKey.load(keyFile).keyIdHex();
        assertThatThrownBy(() -> ShippedGateway.start(Files.createDirectory(scratch.resolve("c")),
                with(shared, "--master-key", otherKey.toString()), env).close())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("exited with status 2")
                .hasMessageContaining("master key " + otherId + " is not the key of the store")
                .hasMessageContaining("expects master key " + storeId);
    }

    private static List<String> with(List<String> flags, String... more) {
        List<String> all = new ArrayList<>(flags);
        all.addAll(List.of(more));
        return all;
    }

    private static S3Client client(URI endpoint) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        StockClients.ACCESS_KEY, StockClients.SECRET_KEY))).build();
    }
}

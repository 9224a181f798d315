package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The release stage's checks, the same on every backend: stock clients on their default settings against the gateway
 * that {@code ./coffer serve} runs from the packaged jar and lib/ ({@link ShippedGateway}), one gateway per backend,
 * shared by every check. A subclass per backend says how the gateway is started.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReleaseChecks {
    static final long MIB = 1024 * 1024;

    /** A directory of the running check's own. */
    @TempDir
    Path work;

    ShippedGateway gateway;

    /** Starts the gateway on this class's backend; {@code work} is its own directory. */
    abstract ShippedGateway startGateway(Path work) throws Exception;

    @BeforeAll
    void start(@TempDir Path gatewayDir) throws Exception {
        gateway = startGateway(gatewayDir);
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void javaSdkWithDefaultChecksumsPutsGetsRangesAndUploadsInParts() throws Exception {
        byte[] body = randomBytes(1, (int) (3 * MIB + 17));
        byte[] large = randomBytes(2, (int) (20 * MIB + 5));
        StaticCredentialsProvider credentials = StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ShippedGateway.ACCESS_KEY, ShippedGateway.SECRET_KEY));
        URI endpoint = gateway.endpoint();
        try (S3Client s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(credentials).build();
                S3AsyncClient multipart = S3AsyncClient.builder().endpointOverride(endpoint)
                        .region(Region.US_EAST_1).forcePathStyle(true).credentialsProvider(credentials)
                        .multipartEnabled(true).build()) {
            s3.createBucket(b -> b.bucket("java-sdk"));
            s3.putObject(b -> b.bucket("java-sdk").key("small"), RequestBody.fromBytes(body));
            assertThat(s3.getObjectAsBytes(b -> b.bucket("java-sdk").key("small")).asByteArray()).isEqualTo(body);

            ResponseBytes<GetObjectResponse> range = s3.getObjectAsBytes(b -> b.bucket("java-sdk").key("small")
                    .range("bytes=1000-2000999"));
            assertThat(range.response().contentRange()).isEqualTo("bytes 1000-2000999/" + body.length);
            assertThat(range.asByteArray()).isEqualTo(java.util.Arrays.copyOfRange(body, 1000, 2001000));

            // the multipart client's defaults: 8 MiB parts above an 8 MiB threshold
            multipart.putObject(b -> b.bucket("java-sdk").key("large"), AsyncRequestBody.fromBytes(large)).join();
            assertThat(s3.headObject(b -> b.bucket("java-sdk").key("large")).eTag()).endsWith("-3\"");
            assertThat(s3.getObjectAsBytes(b -> b.bucket("java-sdk").key("large")).asByteArray()).isEqualTo(large);
        }
    }

    static byte[] randomBytes(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}

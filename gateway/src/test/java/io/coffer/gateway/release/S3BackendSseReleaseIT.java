package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.s3.sse.MotoKms;
import io.coffer.sdk.testing.S3ServerFixture;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Server-side encryption through the shipped launcher: {@code ./coffer serve} from the packaged jar and lib/ with the
 * S3 backend (s3proxy on a loopback port), aws-cli's {@code --sse-c} / {@code --sse-c-key} and {@code --sse aws:kms
 * --sse-kms-key-id} round trips, byte-exact, single PUTs and multipart (aws-cli's 8 MiB threshold), with SSE-KMS from a
 * keyring file and from a KMS (moto's, started here); the backend bucket holds none of the plaintext.
 */
class S3BackendSseReleaseIT {
    private static final int SIZE = 9 * 1024 * 1024 + 17;

    @TempDir
    Path work;

    @Test
    void awsCliRoundTripsSseCAndKeyringSseKmsAndTheBackendHoldsNoPlaintext() throws Exception {
        Path keyring = work.resolve("keyring");
        Files.writeString(keyring, "release-key " + Base64.getEncoder().encodeToString(bytes(99, 32)) + "\n");
        Files.setPosixFilePermissions(keyring, PosixFilePermissions.fromString("rw-------"));
        Path customerKey = work.resolve("customer.key");
        Files.write(customerKey, bytes(98, 32));
        Path source = Files.write(work.resolve("up.bin"), bytes(1, SIZE));
        S3ServerFixture s3 = S3ServerFixture.start();
        String backendBucket = s3.createBucket();
        try (ShippedGateway gateway = start(s3, backendBucket, Map.of("COFFER_KMS_KEYRING", keyring.toString(),
                "COFFER_SSE_C_OVER_HTTP", "true"))) {
            aws(gateway, "s3", "mb", "s3://sse");
            aws(gateway, "s3", "cp", source.toString(), "s3://sse/kms.bin", "--sse", "aws:kms", "--sse-kms-key-id",
                    "release-key");
            assertThat(aws(gateway, "s3api", "head-object", "--bucket", "sse", "--key", "kms.bin"))
                    .contains("\"SSEKMSKeyId\": \"release-key\"").contains("\"ServerSideEncryption\": \"aws:kms\"");
            Path kmsBack = work.resolve("kms-down.bin");
            aws(gateway, "s3", "cp", "s3://sse/kms.bin", kmsBack.toString());
            assertThat(Files.mismatch(source, kmsBack)).as("first differing byte").isEqualTo(-1);

            String sseC = "fileb://" + customerKey;
            aws(gateway, "s3", "cp", source.toString(), "s3://sse/c.bin", "--sse-c", "AES256", "--sse-c-key", sseC);
            Path cBack = work.resolve("c-down.bin");
            aws(gateway, "s3", "cp", "s3://sse/c.bin", cBack.toString(), "--sse-c", "AES256", "--sse-c-key", sseC);
            assertThat(Files.mismatch(source, cBack)).as("first differing byte").isEqualTo(-1);
            // without the customer key nothing comes back
            assertThat(StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://sse/c.bin",
                    work.resolve("no-key.bin").toString()).exitCode()).isNotZero();
            assertNoPlaintext(s3, backendBucket, Files.readAllBytes(source));
        }
    }

    @Test
    void awsCliRoundTripsSseKmsThroughAKms() throws Exception {
        Path source = Files.write(work.resolve("up.bin"), bytes(2, SIZE));
        S3ServerFixture s3 = S3ServerFixture.start();
        String backendBucket = s3.createBucket();
        try (MotoKms kms = MotoKms.start(work.resolve("moto"))) {
            String arn = kms.createKey("alias/release");
            try (ShippedGateway gateway = start(s3, backendBucket, Map.of(
                    "COFFER_KMS_ENDPOINT", kms.endpoint().toString(),
                    "COFFER_KMS_ACCESS_KEY", MotoKms.ACCESS_KEY, "COFFER_KMS_SECRET_KEY", MotoKms.SECRET_KEY))) {
                aws(gateway, "s3", "mb", "s3://sse-kms");
                aws(gateway, "s3", "cp", source.toString(), "s3://sse-kms/kms.bin", "--sse", "aws:kms",
                        "--sse-kms-key-id", "alias/release");
                assertThat(aws(gateway, "s3api", "head-object", "--bucket", "sse-kms", "--key", "kms.bin"))
                        .contains("\"SSEKMSKeyId\": \"" + arn + "\"");
                Path back = work.resolve("down.bin");
                aws(gateway, "s3", "cp", "s3://sse-kms/kms.bin", back.toString());
                assertThat(Files.mismatch(source, back)).as("first differing byte").isEqualTo(-1);
                assertThat(StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", source.toString(),
                        "s3://sse-kms/x.bin", "--sse", "aws:kms", "--sse-kms-key-id", "alias/no-such-key").stderr())
                        .contains("KMS.NotFoundException");
                assertNoPlaintext(s3, backendBucket, Files.readAllBytes(source));
            }
        }
    }

    private ShippedGateway start(S3ServerFixture s3, String bucket, Map<String, String> sse) throws Exception {
        Map<String, String> env = new HashMap<>(sse);
        env.put("COFFER_BACKEND_ACCESS_KEY", s3.accessKey());
        env.put("COFFER_BACKEND_SECRET_KEY", s3.secretKey());
        return ShippedGateway.start(Files.createDirectories(work.resolve("gateway")), List.of("--backend", "s3",
                "--s3-endpoint", s3.endpoint().toString(), "--s3-bucket", bucket, "--s3-path-style"), env);
    }

    private String aws(ShippedGateway gateway, String... args) {
        return StockClients.awsCli(gateway.endpoint(), work, args).requireSuccess().stdout();
    }

    /** No 32-byte window of {@code plaintext} (one at every 4 KiB) in any object of the backend bucket. */
    private static void assertNoPlaintext(S3ServerFixture s3, String bucket, byte[] plaintext) {
        Map<Long, byte[]> windows = new HashMap<>();
        for (int at = 0; at + 32 <= plaintext.length; at += 4096) {
            windows.put(ByteBuffer.wrap(plaintext, at, 8).getLong(), Arrays.copyOfRange(plaintext, at, at + 32));
        }
        try (S3Client backend = S3Client.builder().endpointOverride(s3.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials
                        .create(s3.accessKey(), s3.secretKey()))).build()) {
            List<S3Object> objects = backend.listObjectsV2Paginator(r -> r.bucket(bucket)).contents().stream()
                    .toList();
            assertThat(objects).as("the backend holds the gateway's packs and records").isNotEmpty();
            long total = 0;
            for (S3Object o : objects) {
                byte[] stored = backend.getObjectAsBytes(r -> r.bucket(bucket).key(o.key())).asByteArray();
                total += stored.length;
                ByteBuffer b = ByteBuffer.wrap(stored);
                for (int i = 0; i + 32 <= stored.length; i++) {
                    byte[] w = windows.get(b.getLong(i));
                    if (w != null && Arrays.equals(stored, i, i + 32, w, 0, 32)) {
                        throw new AssertionError("plaintext at " + i + " of backend object " + o.key());
                    }
                }
            }
            assertThat(total).as("the backend holds at least the data's size").isGreaterThanOrEqualTo(plaintext.length);
        }
    }

    private static byte[] bytes(int seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}

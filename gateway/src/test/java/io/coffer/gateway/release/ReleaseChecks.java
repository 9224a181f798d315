package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
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
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The release stage's checks, the same on every backend: stock clients on their default settings against the gateway
 * that {@code ./coffer serve} runs from the packaged jar and lib/ ({@link ShippedGateway}), one gateway per backend,
 * shared by every check. A subclass per backend says how the gateway is started.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReleaseChecks {
    static final long MIB = 1024 * 1024;

    @TempDir
    Path scratch;

    /** A directory of the running check's own, deleted after it (the files are large). */
    Path work;

    ShippedGateway gateway;

    /** Starts the gateway on this class's backend; {@code work} is its own directory. */
    abstract ShippedGateway startGateway(Path work) throws Exception;

    @BeforeAll
    void start(@TempDir Path gatewayDir) throws Exception {
        gateway = startGateway(gatewayDir);
    }

    @BeforeEach
    void createWorkDirectory(TestInfo test) throws IOException {
        work = Files.createDirectories(scratch.resolve(test.getTestMethod().orElseThrow().getName()));
    }

    @AfterEach
    void deleteWorkDirectory() throws IOException {
        try (Stream<Path> all = Files.walk(work)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
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
        StaticCredentialsProvider credentials = credentials();
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
            assertThat(range.asByteArray()).isEqualTo(Arrays.copyOfRange(body, 1000, 2001000));

            // the multipart client's defaults: 8 MiB parts above an 8 MiB threshold
            multipart.putObject(b -> b.bucket("java-sdk").key("large"), AsyncRequestBody.fromBytes(large)).join();
            assertThat(s3.headObject(b -> b.bucket("java-sdk").key("large")).eTag()).endsWith("-3\"");
            assertThat(s3.getObjectAsBytes(b -> b.bucket("java-sdk").key("large")).asByteArray()).isEqualTo(large);
        }
    }

    @Test
    void javaSdkPresignedUrlServesTheObjectToAPlainHttpGet() throws Exception {
        byte[] body = randomBytes(14, 100_000);
        try (S3Client s3 = S3Client.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(credentials()).build();
                S3Presigner presigner = S3Presigner.builder().endpointOverride(gateway.endpoint())
                        .region(Region.US_EAST_1).credentialsProvider(credentials())
                        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                        .build()) {
            s3.createBucket(b -> b.bucket("java-sdk-presign"));
            s3.putObject(b -> b.bucket("java-sdk-presign").key("p.bin"), RequestBody.fromBytes(body));
            URI url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket("java-sdk-presign").key("p.bin"))).url().toURI();
            HttpResponse<byte[]> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(got.statusCode()).as("GET %s: %s", url, new String(got.body(), StandardCharsets.UTF_8))
                    .isEqualTo(200);
            assertThat(got.body()).isEqualTo(body);
        }
    }

    @Test
    void awsCliCopies100MegabytesUpAndDown() throws Exception {
        Path source = randomFile(work.resolve("up.bin"), 3, 100_000_000);
        Path back = work.resolve("down.bin");
        StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://aws-cli-cp").requireSuccess();
        StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", source.toString(), "s3://aws-cli-cp/big.bin").requireSuccess();
        StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://aws-cli-cp/big.bin", back.toString()).requireSuccess();
        assertThat(Files.mismatch(source, back)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void awsCliSyncsATreeUpAndDownAndThenHasNothingToDo() throws Exception {
        Path tree = work.resolve("tree");
        randomFile(tree.resolve("a.txt"), 4, 10);
        randomFile(tree.resolve("sub/b.bin"), 5, 300_000);
        randomFile(tree.resolve("sub/deeper/c.bin"), 6, 9 * MIB);
        Files.write(tree.resolve("sub/empty"), new byte[0]);
        Path back = work.resolve("back");
        StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://aws-cli-sync").requireSuccess();
        StockClients.awsCli(gateway.endpoint(), work, "s3", "sync", tree.toString(), "s3://aws-cli-sync/tree").requireSuccess();
        StockClients.awsCli(gateway.endpoint(), work, "s3", "sync", "s3://aws-cli-sync/tree", back.toString()).requireSuccess();
        assertThat(contents(back)).isEqualTo(contents(tree));
        // sync compares sizes and times: a second run in either direction has nothing to copy
        assertThat(StockClients.awsCli(gateway.endpoint(), work, "s3", "sync", tree.toString(), "s3://aws-cli-sync/tree")
                .requireSuccess().stdout()).isEmpty();
        assertThat(StockClients.awsCli(gateway.endpoint(), work, "s3", "sync", "s3://aws-cli-sync/tree", back.toString())
                .requireSuccess().stdout()).isEmpty();
    }

    @Test
    void awsCliPresignedUrlServesTheObjectToAPlainHttpGet() throws Exception {
        Path source = randomFile(work.resolve("presigned.bin"), 7, 100_000);
        StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://aws-cli-presign").requireSuccess();
        StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", source.toString(), "s3://aws-cli-presign/p.bin")
                .requireSuccess();
        String url = StockClients.awsCli(gateway.endpoint(), work, "s3", "presign", "s3://aws-cli-presign/p.bin")
                .requireSuccess().stdout().strip();
        HttpResponse<byte[]> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(got.statusCode()).as("GET %s: %s", url, new String(got.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        assertThat(got.body()).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void boto3UploadsAndDownloads64MebibytesWithItsTransferDefaults() throws Exception {
        Path source = randomFile(work.resolve("up.bin"), 8, 64 * MIB);
        Path back = work.resolve("down.bin");
        JsonNode r = json(StockClients.boto3(gateway.endpoint(), work, "transfer", "boto3-transfer", source.toString(),
                back.toString()).requireSuccess());
        assertThat(r.get("etag").asText()).as("boto3's default 8 MiB parts").endsWith("-8\"");
        assertThat(Files.mismatch(source, back)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void boto3DownloadsAnObjectItPutInOneRequest() throws Exception {
        Path source = randomFile(work.resolve("up.bin"), 13, 9 * MIB + 1);
        Path back = work.resolve("down.bin");
        StockClients.boto3(gateway.endpoint(), work, "download", "boto3-download", source.toString(), back.toString())
                .requireSuccess();
        assertThat(Files.mismatch(source, back)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void boto3GetsARangeOfAnObjectItPut() throws Exception {
        Path source = randomFile(work.resolve("object.bin"), 9, MIB + 3);
        Path out = work.resolve("range.bin");
        JsonNode r = json(StockClients.boto3(gateway.endpoint(), work, "range", "boto3-range", source.toString(), "1000",
                "500999", out.toString()).requireSuccess());
        assertThat(r.get("content_range").asText()).isEqualTo("bytes 1000-500999/" + (MIB + 3));
        assertThat(Files.readAllBytes(out)).isEqualTo(Arrays.copyOfRange(Files.readAllBytes(source), 1000, 501000));
    }

    @Test
    void boto3PresignedUrlServesTheObjectToAPlainHttpGet() throws Exception {
        Path source = randomFile(work.resolve("object.bin"), 10, 100_000);
        Path out = work.resolve("got.bin");
        JsonNode r = json(StockClients.boto3(gateway.endpoint(), work, "presign", "boto3-presign", source.toString(),
                out.toString()).requireSuccess());
        assertThat(r.get("status").asInt()).as("GET %s: %s", r.get("url"), r.get("error")).isEqualTo(200);
        assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void rcloneCopiesATreeUpAndDownAndChecksIt() throws Exception {
        Path tree = work.resolve("tree");
        randomFile(tree.resolve("a.txt"), 11, 12);
        randomFile(tree.resolve("dir/b.bin"), 12, 3 * MIB);
        Path back = work.resolve("back");
        StockClients.rclone(gateway.endpoint(), work, "mkdir", "coffer:rclone").requireSuccess();
        StockClients.rclone(gateway.endpoint(), work, "copy", tree.toString(), "coffer:rclone/tree").requireSuccess();
        StockClients.rclone(gateway.endpoint(), work, "check", tree.toString(), "coffer:rclone/tree").requireSuccess();
        StockClients.rclone(gateway.endpoint(), work, "copy", "coffer:rclone/tree", back.toString()).requireSuccess();
        assertThat(contents(back)).isEqualTo(contents(tree));
    }

    @Test
    void awsCliTagsObjectsAndBucketsWritesConditionallyAndSetsCorsThatAPreflightFollows() throws Exception {
        Path source = randomFile(work.resolve("tagged.bin"), 14, 300_000);
        String bucket = "aws-cli-s3api";
        awsCli("s3", "mb", "s3://" + bucket);
        awsCli("s3api", "put-object", "--bucket", bucket, "--key", "t.bin", "--body", source.toString(),
                "--tagging", "team=storage&env=prod");
        assertThat(tags(awsCli("s3api", "get-object-tagging", "--bucket", bucket, "--key", "t.bin")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("team", "storage", "env", "prod"));
        awsCli("s3api", "put-object-tagging", "--bucket", bucket, "--key", "t.bin", "--tagging",
                "TagSet=[{Key=stage,Value=release}]");
        assertThat(tags(awsCli("s3api", "get-object-tagging", "--bucket", bucket, "--key", "t.bin")))
                .containsExactlyEntriesOf(Map.of("stage", "release"));
        awsCli("s3api", "put-bucket-tagging", "--bucket", bucket, "--tagging", "TagSet=[{Key=owner,Value=ops}]");
        assertThat(tags(awsCli("s3api", "get-bucket-tagging", "--bucket", bucket)))
                .containsExactlyEntriesOf(Map.of("owner", "ops"));

        // conditional writes: If-None-Match: * refuses an existing key, If-Match with a stale ETag refuses too
        StockClients.Result exists = StockClients.awsCli(gateway.endpoint(), work, "s3api", "put-object", "--bucket",
                bucket, "--key", "t.bin", "--body", source.toString(), "--if-none-match", "*");
        assertThat(exists.exitCode()).isNotZero();
        assertThat(exists.stderr()).contains("PreconditionFailed");
        StockClients.Result stale = StockClients.awsCli(gateway.endpoint(), work, "s3api", "put-object", "--bucket",
                bucket, "--key", "t.bin", "--body", source.toString(), "--if-match", "\"0123456789abcdef0123456789abcdef\"");
        assertThat(stale.exitCode()).isNotZero();
        assertThat(stale.stderr()).contains("PreconditionFailed");

        awsCli("s3api", "put-bucket-cors", "--bucket", bucket, "--cors-configuration", "{\"CORSRules\":[{"
                + "\"AllowedOrigins\":[\"https://app.example\"],\"AllowedMethods\":[\"GET\",\"PUT\"],"
                + "\"AllowedHeaders\":[\"*\"],\"MaxAgeSeconds\":600}]}");
        assertThat(awsCli("s3api", "get-bucket-cors", "--bucket", bucket)).contains("https://app.example");
        HttpResponse<String> allowed = preflight(bucket, "https://app.example");
        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
        assertThat(allowed.headers().firstValue("access-control-allow-origin")).contains("https://app.example");
        assertThat(allowed.headers().firstValue("access-control-allow-methods").orElse("")).contains("PUT");
        assertThat(preflight(bucket, "https://elsewhere.example").statusCode()).isEqualTo(403);
    }

    @Test
    void awsCliKeepsVersionsHonoursObjectLockAndLifecycleAndBlocksPublicAclsByDefault() throws Exception {
        Path v1 = randomFile(work.resolve("v1.bin"), 15, 200_000);
        Path v2 = randomFile(work.resolve("v2.bin"), 16, 300_000);
        Path back = work.resolve("back.bin");

        // versioning: two versions of one key, the older one read by its id, a delete marker that hides both
        String versioned = "aws-cli-versions";
        awsCli("s3", "mb", "s3://" + versioned);
        awsCli("s3api", "put-bucket-versioning", "--bucket", versioned, "--versioning-configuration",
                "Status=Enabled");
        String first = field(awsCli("s3api", "put-object", "--bucket", versioned, "--key", "k", "--body",
                v1.toString()), "VersionId");
        String second = field(awsCli("s3api", "put-object", "--bucket", versioned, "--key", "k", "--body",
                v2.toString()), "VersionId");
        assertThat(first).isNotEqualTo(second);
        awsCli("s3api", "get-object", "--bucket", versioned, "--key", "k", "--version-id", first, back.toString());
        assertThat(Files.mismatch(v1, back)).as("first differing byte of the older version").isEqualTo(-1);
        awsCli("s3api", "delete-object", "--bucket", versioned, "--key", "k");
        assertThat(StockClients.awsCli(gateway.endpoint(), work, "s3api", "head-object", "--bucket", versioned,
                "--key", "k").exitCode()).as("HEAD of a key whose current version is a delete marker").isNotZero();
        JsonNode versions = new ObjectMapper().readTree(awsCli("s3api", "list-object-versions", "--bucket",
                versioned));
        assertThat(versions.get("Versions")).hasSize(2);
        assertThat(versions.get("DeleteMarkers")).hasSize(1);

        // Object Lock: a version under GOVERNANCE retention survives a plain delete, not one that bypasses it
        String locked = "aws-cli-locked";
        awsCli("s3api", "create-bucket", "--bucket", locked, "--object-lock-enabled-for-bucket");
        String lockedVersion = field(awsCli("s3api", "put-object", "--bucket", locked, "--key", "k", "--body",
                v1.toString()), "VersionId");
        awsCli("s3api", "put-object-retention", "--bucket", locked, "--key", "k", "--version-id", lockedVersion,
                "--retention", "{\"Mode\":\"GOVERNANCE\",\"RetainUntilDate\":\"2099-01-01T00:00:00Z\"}");
        StockClients.Result refused = StockClients.awsCli(gateway.endpoint(), work, "s3api", "delete-object",
                "--bucket", locked, "--key", "k", "--version-id", lockedVersion);
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("AccessDenied");
        awsCli("s3api", "get-object", "--bucket", locked, "--key", "k", "--version-id", lockedVersion,
                back.toString());
        assertThat(Files.mismatch(v1, back)).as("first differing byte of the locked version").isEqualTo(-1);
        awsCli("s3api", "delete-object", "--bucket", locked, "--key", "k", "--version-id", lockedVersion,
                "--bypass-governance-retention");
        assertThat(new ObjectMapper().readTree(awsCli("s3api", "list-object-versions", "--bucket", locked))
                .path("Versions")).isEmpty();

        // lifecycle: the configuration is kept as sent
        awsCli("s3api", "put-bucket-lifecycle-configuration", "--bucket", versioned, "--lifecycle-configuration",
                "{\"Rules\":[{\"ID\":\"tmp\",\"Status\":\"Enabled\",\"Filter\":{\"Prefix\":\"tmp/\"},"
                        + "\"Expiration\":{\"Days\":1},\"NoncurrentVersionExpiration\":{\"NoncurrentDays\":3}}]}");
        JsonNode rules = new ObjectMapper().readTree(awsCli("s3api", "get-bucket-lifecycle-configuration",
                "--bucket", versioned)).get("Rules");
        assertThat(rules).hasSize(1);
        assertThat(rules.get(0).path("Expiration").path("Days").asInt()).isEqualTo(1);
        assertThat(rules.get(0).path("NoncurrentVersionExpiration").path("NoncurrentDays").asInt()).isEqualTo(3);

        // public ACLs: blocked by default (the operator has not named this tenant in public-access-tenants)
        String plain = "aws-cli-acl";
        awsCli("s3", "mb", "s3://" + plain);
        awsCli("s3api", "put-object", "--bucket", plain, "--key", "k", "--body", v1.toString());
        StockClients.Result publish = StockClients.awsCli(gateway.endpoint(), work, "s3api", "put-object-acl",
                "--bucket", plain, "--key", "k", "--acl", "public-read");
        assertThat(publish.exitCode()).isNotZero();
        assertThat(publish.stderr()).contains("AccessDenied");
        assertThat(StockClients.awsCli(gateway.endpoint(), work, "s3api", "get-object", "--bucket", plain, "--key",
                "k", "--no-sign-request", back.resolveSibling("anonymous.bin").toString()).exitCode())
                .as("an anonymous GET of a private object").isNotZero();
    }

    private static String field(String json, String name) throws IOException {
        JsonNode value = new ObjectMapper().readTree(json).get(name);
        assertThat(value).as(name + " in " + json).isNotNull();
        return value.asText();
    }

    private String awsCli(String... args) {
        return StockClients.awsCli(gateway.endpoint(), work, args).requireSuccess().stdout();
    }

    private static Map<String, String> tags(String json) throws IOException {
        Map<String, String> tags = new TreeMap<>();
        new ObjectMapper().readTree(json).get("TagSet").forEach(t -> tags.put(t.get("Key").asText(),
                t.get("Value").asText()));
        return tags;
    }

    /** A browser's CORS preflight for a PUT of {@code bucket/t.bin} from {@code origin} (unsigned, as browsers send). */
    private HttpResponse<String> preflight(String bucket, String origin) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(gateway.endpoint().resolve("/" + bucket
                        + "/t.bin")).method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", origin)
                .header("Access-Control-Request-Method", "PUT").header("Access-Control-Request-Headers",
                        "content-type").build(), HttpResponse.BodyHandlers.ofString());
    }

    private static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(StockClients.ACCESS_KEY,
                StockClients.SECRET_KEY));
    }

    private static JsonNode json(StockClients.Result r) throws IOException {
        List<String> lines = r.stdout().strip().lines().toList();
        assertThat(lines).as("stdout; stderr:\n" + r.stderr()).isNotEmpty();
        return new ObjectMapper().readTree(lines.get(lines.size() - 1));
    }

    /** Every regular file under {@code dir}: relative path to its SHA-256. */
    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(), sha256(f));
            }
        }
        return out;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n = in.read(buf); n > 0; n = in.read(buf)) {
                sha.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code size} pseudo-random bytes (from {@code seed}) to {@code file}, creating its directories. */
    static Path randomFile(Path file, long seed, long size) throws IOException {
        Files.createDirectories(file.getParent());
        Random random = new Random(seed);
        byte[] buf = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size; left > 0; left -= buf.length) {
                random.nextBytes(buf);
                out.write(buf, 0, (int) Math.min(buf.length, left));
            }
        }
        return file;
    }

    static byte[] randomBytes(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}

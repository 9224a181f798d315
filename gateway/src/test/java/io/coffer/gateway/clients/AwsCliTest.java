package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * aws-cli v1 (from PyPI, with botocore's default CRC32 checksums sent as aws-chunked trailers) against the gateway on
 * the real engine, with path-style and virtual-hosted-style addressing chosen in its config file. Multipart is set to
 * 8 MiB so ~40 MiB files cross it; every byte and ETag is compared.
 */
class AwsCliTest {
    private static final String BASE_DOMAIN = "s3.localhost";
    private static final long MIB = 1024 * 1024;
    private static final long PART_SIZE = 8 * MIB;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withBaseDomain(BASE_DOMAIN);

    @TempDir
    Path work;

    enum Addressing { PATH, VIRTUAL }

    /** aws-cli configured for one addressing style. */
    private final class Cli {
        final Addressing addressing;
        final Path config;
        final String endpoint;

        /**
         * @param presignWithSigV4 aws-cli v1's {@code s3 presign} signs with SigV2 unless the config file asks for
         *                         {@code signature_version = s3v4}; the gateway accepts both
         */
        Cli(Addressing addressing, boolean presignWithSigV4) throws Exception {
            this.addressing = addressing;
            this.config = work.resolve("aws-config-" + addressing + "-" + presignWithSigV4);
            Files.writeString(config, "[default]\nregion = us-east-1\ns3 =\n"
                    + "  addressing_style = " + addressing.name().toLowerCase(Locale.ROOT) + "\n"
                    + (presignWithSigV4 ? "  signature_version = s3v4\n" : "")
                    + "  multipart_threshold = 8MB\n  multipart_chunksize = 8MB\n  max_concurrent_requests = 4\n");
            this.endpoint = addressing == Addressing.PATH ? gateway.endpoint().toString()
                    : "http://" + BASE_DOMAIN + ":" + gateway.port();
        }

        String bucket(String prefix) {
            String bucket = prefix + "-" + addressing.name().toLowerCase(Locale.ROOT);
            if (addressing == Addressing.VIRTUAL) {
                LoopbackHostsFile.resolveToLoopback(BASE_DOMAIN, bucket + "." + BASE_DOMAIN);
            }
            return bucket;
        }

        /** Runs {@code aws --endpoint-url ENDPOINT args...}, requires success, returns stdout trimmed. */
        String run(String... args) {
            ExternalClients.Result r = attempt(args);
            return r.requireSuccess(command(args)).stdout().strip();
        }

        ExternalClients.Result attempt(String... args) {
            return ExternalClients.run(command(args), Map.of("AWS_ACCESS_KEY_ID", gateway.accessKeyId(),
                    "AWS_SECRET_ACCESS_KEY", gateway.secretKey(), "AWS_CONFIG_FILE", config.toString()),
                    work, Duration.ofMinutes(2));
        }

        private List<String> command(String... args) {
            List<String> cmd = new ArrayList<>(List.of(ExternalClients.aws().toString(), "--endpoint-url", endpoint));
            cmd.addAll(List.of(args));
            return cmd;
        }

        String etag(String bucket, String key) {
            return TestFiles.unquote(run("s3api", "head-object", "--bucket", bucket, "--key", key, "--query", "ETag",
                    "--output", "text"));
        }
    }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void highLevelCommandsCopySyncListAndRemove(Addressing addressing) throws Exception {
        Cli cli = new Cli(addressing, true);
        String bucket = cli.bucket("cli-s3");
        String s3 = "s3://" + bucket;
        cli.run("s3", "mb", s3);

        Path small = TestFiles.write(work.resolve("small.bin"), 21, MIB + 7);
        Path big = TestFiles.write(work.resolve("big.bin"), 22, 40 * MIB + 123);
        cli.run("s3", "cp", small.toString(), s3 + "/single/small.bin");
        cli.run("s3", "cp", big.toString(), s3 + "/multi/big.bin");
        String etags = cli.run("s3api", "list-objects-v2", "--bucket", bucket, "--query", "Contents[].[Key,ETag]",
                "--output", "text");
        assertThat(etags.lines().map(l -> l.replace("\"", ""))).containsExactly(
                "multi/big.bin\t" + TestFiles.multipartEtag(big, PART_SIZE),
                "single/small.bin\t" + TestFiles.singlePartEtag(small));
        assertThat(TestFiles.multipartEtag(big, PART_SIZE)).as("6 parts of 8 MiB").endsWith("-6");

        // a bucket-to-bucket copy past the multipart threshold: UploadPartCopy in 8 MiB ranges
        cli.run("s3", "cp", s3 + "/multi/big.bin", s3 + "/copied/big.bin");

        Path down = work.resolve("down");
        cli.run("s3", "cp", "--recursive", s3, down.toString());
        assertThat(TestFiles.md5Hex(down.resolve("single/small.bin"))).isEqualTo(TestFiles.md5Hex(small));
        assertThat(TestFiles.md5Hex(down.resolve("multi/big.bin"))).isEqualTo(TestFiles.md5Hex(big));
        assertThat(TestFiles.md5Hex(down.resolve("copied/big.bin"))).isEqualTo(TestFiles.md5Hex(big));
        assertThat(cli.etag(bucket, "copied/big.bin")).isEqualTo(TestFiles.multipartEtag(big, PART_SIZE));

        Path tree = work.resolve("tree");
        List<String> relative = List.of("a.txt", "sub/b.bin", "sub/deeper/c with space.txt", "sub/deeper/d.bin");
        for (int i = 0; i < relative.size(); i++) {
            TestFiles.write(tree.resolve(relative.get(i)), 30 + i, (i + 1) * 300_000L);
        }
        cli.run("s3", "sync", tree.toString(), s3 + "/tree");
        Path synced = work.resolve("synced");
        cli.run("s3", "sync", s3 + "/tree", synced.toString());
        for (String f : relative) {
            assertThat(TestFiles.md5Hex(synced.resolve(f))).as(f).isEqualTo(TestFiles.md5Hex(tree.resolve(f)));
        }
        assertThat(cli.run("s3", "sync", tree.toString(), s3 + "/tree")).as("nothing left to sync").isEmpty();

        String listing = cli.run("s3", "ls", "--recursive", s3);
        assertThat(listing.lines().map(l -> l.substring(l.lastIndexOf(' ') + 1))).contains("single/small.bin",
                "multi/big.bin", "copied/big.bin", "tree/a.txt", "tree/sub/b.bin", "tree/sub/deeper/d.bin");
        assertThat(listing).contains("tree/sub/deeper/c with space.txt").contains(Long.toString(Files.size(big)));

        assertThat(cli.run("s3", "rm", "--recursive", s3).lines()).hasSize(7);
        cli.run("s3", "rb", s3);
        assertThat(cli.run("s3", "ls")).doesNotContain(bucket);
    }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void s3apiCommandsAndPresignedUrls(Addressing addressing) throws Exception {
        Cli cli = new Cli(addressing, true);
        String bucket = cli.bucket("cli-api");
        cli.run("s3api", "create-bucket", "--bucket", bucket);
        Path body = TestFiles.write(work.resolve("body.bin"), 41, 2 * MIB + 1);
        String putEtag = TestFiles.unquote(cli.run("s3api", "put-object", "--bucket", bucket, "--key", "obj",
                "--body", body.toString(), "--query", "ETag", "--output", "text"));
        assertThat(putEtag).isEqualTo(TestFiles.singlePartEtag(body));

        Path got = work.resolve("got.bin");
        String getEtag = TestFiles.unquote(cli.run("s3api", "get-object", "--bucket", bucket, "--key", "obj",
                got.toString(), "--query", "ETag", "--output", "text"));
        assertThat(getEtag).isEqualTo(putEtag);
        assertThat(TestFiles.md5Hex(got)).isEqualTo(TestFiles.md5Hex(body));
        assertThat(cli.run("s3api", "head-object", "--bucket", bucket, "--key", "obj", "--query", "ContentLength",
                "--output", "text")).isEqualTo(Long.toString(Files.size(body)));

        String copyEtag = TestFiles.unquote(cli.run("s3api", "copy-object", "--bucket", bucket, "--key", "copy",
                "--copy-source", bucket + "/obj", "--query", "CopyObjectResult.ETag", "--output", "text"));
        assertThat(copyEtag).isEqualTo(putEtag);

        String uploadId = cli.run("s3api", "create-multipart-upload", "--bucket", bucket, "--key", "multi",
                "--query", "UploadId", "--output", "text");
        Path part1 = TestFiles.write(work.resolve("part1.bin"), 42, 5 * MIB);
        Path part2 = TestFiles.write(work.resolve("part2.bin"), 43, MIB / 2);
        StringBuilder parts = new StringBuilder("{\"Parts\": [");
        List<Path> partFiles = List.of(part1, part2);
        for (int n = 1; n <= partFiles.size(); n++) {
            String etag = cli.run("s3api", "upload-part", "--bucket", bucket, "--key", "multi", "--upload-id",
                    uploadId, "--part-number", Integer.toString(n), "--body", partFiles.get(n - 1).toString(),
                    "--query", "ETag", "--output", "text");
            assertThat(TestFiles.unquote(etag)).isEqualTo(TestFiles.md5Hex(partFiles.get(n - 1)));
            parts.append(n > 1 ? ", " : "").append("{\"PartNumber\": ").append(n).append(", \"ETag\": ")
                    .append(etag.startsWith("\"") ? etag : "\"\\\"" + etag + "\\\"\"").append('}');
        }
        Path partsJson = Files.writeString(work.resolve("parts.json"), parts.append("]}").toString());
        String multiEtag = TestFiles.unquote(cli.run("s3api", "complete-multipart-upload", "--bucket", bucket,
                "--key", "multi", "--upload-id", uploadId, "--multipart-upload", "file://" + partsJson,
                "--query", "ETag", "--output", "text"));
        Path joined = work.resolve("joined.bin");
        Files.write(joined, Files.readAllBytes(part1));
        Files.write(joined, Files.readAllBytes(part2), StandardOpenOption.APPEND);
        assertThat(multiEtag).isEqualTo(TestFiles.multipartEtag(joined, 5 * MIB)).endsWith("-2");
        assertThat(cli.run("s3api", "get-object-attributes", "--bucket", bucket, "--key", "multi",
                "--object-attributes", "ETag", "ObjectSize", "ObjectParts", "--query",
                "[ETag, ObjectSize, ObjectParts.TotalPartsCount]", "--output", "text").split("\\s+"))
                .containsExactly(multiEtag, Long.toString(Files.size(joined)), "2");
        cli.run("s3api", "put-object-tagging", "--bucket", bucket, "--key", "multi", "--tagging",
                "TagSet=[{Key=a,Value=b}]");
        assertThat(cli.run("s3api", "get-object-tagging", "--bucket", bucket, "--key", "multi", "--query",
                "TagSet[0].[Key, Value]", "--output", "text").split("\\s+")).containsExactly("a", "b");
        cli.run("s3api", "delete-object-tagging", "--bucket", bucket, "--key", "multi");
        assertThat(cli.run("s3api", "get-object-tagging", "--bucket", bucket, "--key", "multi", "--query",
                "length(TagSet)", "--output", "text").trim()).isEqualTo("0");

        String keys = cli.run("s3api", "list-objects-v2", "--bucket", bucket, "--query", "Contents[].Key",
                "--output", "text");
        assertThat(keys.split("\\s+")).containsExactly("copy", "multi", "obj");

        String url = cli.run("s3", "presign", "s3://" + bucket + "/multi", "--expires-in", "300");
        URI presigned = URI.create(url);
        assertThat(presigned.getHost()).isEqualTo(addressing == Addressing.PATH ? "127.0.0.1"
                : bucket + "." + BASE_DOMAIN);
        HttpResponse<byte[]> fetched = HttpClient.newHttpClient().send(HttpRequest.newBuilder(presigned).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(fetched.statusCode()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo(Files.readAllBytes(joined));
        assertThat(fetched.headers().firstValue("ETag")).hasValue("\"" + multiEtag + "\"");

        ExternalClients.Result missing = cli.attempt("s3api", "head-object", "--bucket", bucket, "--key", "none");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.stderr()).contains("404");

        if (addressing == Addressing.PATH) {
            String sigV2Url = new Cli(addressing, false).run("s3", "presign", "s3://" + bucket + "/multi");
            assertThat(sigV2Url).contains("AWSAccessKeyId=");
            HttpResponse<byte[]> v2 = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(sigV2Url))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(v2.statusCode()).as("aws-cli's default SigV2 URL").isEqualTo(200);
            assertThat(v2.body()).isEqualTo(Files.readAllBytes(joined));
        }
    }
}

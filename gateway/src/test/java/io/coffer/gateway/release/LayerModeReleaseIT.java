package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.clients.ImageLayers;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SimEnc's layer mode end to end: {@code ./coffer serve} with {@code COFFER_LAYER_MODE} naming a bucket; two versions
 * of a .tgz (tar czf of a directory, one file changed and one added) put with aws-cli come back byte for byte with the
 * ETag of the original (its MD5), and the second version adds a fraction of its size to the backend, where a bucket
 * without layer mode stores it whole.
 */
class LayerModeReleaseIT {
    @TempDir
    Path work;

    @Test
    void tgzObjectsComeBackByteIdenticalWithTheirMd5AndSecondVersionsShareStorage() throws Exception {
        Path v1 = work.resolve("v1.tgz");
        Path v2 = work.resolve("v2.tgz");
        Path tree = Files.createDirectories(work.resolve("tree"));
        for (int i = 0; i < 30; i++) {
            Files.writeString(tree.resolve("file" + i + ".txt"), ImageLayers.text(i, 50_000, false));
        }
        ImageLayers.tgz(tree, v1, work);
        Files.writeString(tree.resolve("file12.txt"), ImageLayers.text(99, 50_000, false));
        Files.writeString(tree.resolve("added.txt"), ImageLayers.text(100, 20_000, false));
        ImageLayers.tgz(tree, v2, work);
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, List.of(),
                Map.of("COFFER_LAYER_MODE", "layers=high"))) {
            var endpoint = gateway.endpoint();
            StockClients.awsCli(endpoint, work, "s3", "mb", "s3://layers").requireSuccess();
            StockClients.awsCli(endpoint, work, "s3", "mb", "s3://plain").requireSuccess();
            Path blobs = gatewayDir.resolve("data").resolve("blobs");
            long[] added = new long[2];
            String[] buckets = {"layers", "plain"};
            for (int b = 0; b < 2; b++) {
                for (Path v : List.of(v1, v2)) {
                    long before = size(blobs);
                    String url = "s3://" + buckets[b] + "/image/" + v.getFileName();
                    StockClients.awsCli(endpoint, work, "s3", "cp", v.toString(), url).requireSuccess();
                    added[b] = size(blobs) - before;
                    Path back = work.resolve("back-" + buckets[b] + "-" + v.getFileName());
                    StockClients.awsCli(endpoint, work, "s3", "cp", url, back.toString()).requireSuccess();
                    assertThat(Files.readAllBytes(back)).isEqualTo(Files.readAllBytes(v));
                    String head = StockClients.awsCli(endpoint, work, "s3api", "head-object", "--bucket",
                            buckets[b], "--key", "image/" + v.getFileName()).requireSuccess().stdout();
                    assertThat(head).contains("\\\"" + md5Hex(Files.readAllBytes(v)) + "\\\"");
                }
            }
            long v2Size = Files.size(v2);
            // added[i]: what the second version added to each bucket's backend
            assertThat(added[1]).isGreaterThan(v2Size * 9 / 10);
            assertThat(added[0]).isLessThan(added[1] / 2);
        }
    }

    /**
     * {@code COFFER_LAYER_RECIPES=false} through the launcher, over a third-party S3 server (s3proxy): the effective
     * configuration says so, and a .tgz put with aws-cli comes back byte for byte, whole and in a range, with its MD5.
     */
    @Test
    void withLayerRecipesOffATgzOnAnS3BackendComesBackByteIdentical() throws Exception {
        Path tree = Files.createDirectories(work.resolve("tree"));
        for (int i = 0; i < 20; i++) {
            Files.writeString(tree.resolve("file" + i + ".txt"), ImageLayers.text(i, 40_000, false));
        }
        Path tgz = work.resolve("layer.tgz");
        ImageLayers.tgz(tree, tgz, work);
        S3ServerFixture s3 = S3ServerFixture.start();
        List<String> flags = List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(),
                "--s3-bucket", s3.createBucket(), "--s3-path-style");
        Map<String, String> env = Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(),
                "COFFER_BACKEND_SECRET_KEY", s3.secretKey(), "COFFER_LAYER_MODE", "layers=high",
                "COFFER_LAYER_RECIPES", "false");
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        StockClients.Result config = ShippedGateway.launcher(gatewayDir, env, "config", "check");
        assertThat(config.exitCode()).as("coffer config: %s", config.stderr()).isZero();
        assertThat(config.stdout()).containsPattern("layer-recipes\\s*=\\s*false");
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, flags, env)) {
            var endpoint = gateway.endpoint();
            StockClients.awsCli(endpoint, work, "s3", "mb", "s3://layers").requireSuccess();
            StockClients.awsCli(endpoint, work, "s3", "cp", tgz.toString(), "s3://layers/layer.tgz").requireSuccess();
            Path back = work.resolve("back.tgz");
            StockClients.awsCli(endpoint, work, "s3", "cp", "s3://layers/layer.tgz", back.toString())
                    .requireSuccess();
            byte[] original = Files.readAllBytes(tgz);
            assertThat(Files.readAllBytes(back)).isEqualTo(original);
            Path range = work.resolve("range.bin");
            String head = StockClients.awsCli(endpoint, work, "s3api", "get-object", "--bucket", "layers", "--key",
                    "layer.tgz", "--range", "bytes=100-20099", range.toString()).requireSuccess().stdout();
            assertThat(Files.readAllBytes(range)).isEqualTo(Arrays.copyOfRange(original, 100, 20100));
            assertThat(head).contains("\\\"" + md5Hex(original) + "\\\"");
        }
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static String md5Hex(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }
}

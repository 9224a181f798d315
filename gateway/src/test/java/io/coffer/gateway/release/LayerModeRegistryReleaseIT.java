package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.clients.ImageLayers;
import io.coffer.gateway.clients.RegistryOnCoffer;
import io.coffer.sdk.testing.S3ServerFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Docker registry (distribution, its S3 storage driver) on {@code ./coffer serve} from the launcher, over a
 * third-party S3 server as the backend (s3proxy), with one bucket in layer mode ({@code COFFER_LAYER_MODE}) and one
 * without. Two versions of an image are pushed to each (crane), every layer pulls back byte for byte, and
 * {@code ./coffer stats --json} on the stopped store says what the second version added to each bucket: in layer mode
 * a fraction of its compressed layer bytes, without it nearly all of them. Stats count only chunks that objects
 * reference, so the multipart parts the registry's uploads leave behind until garbage collection do not count.
 */
class LayerModeRegistryReleaseIT {
    private static final List<String> BUCKETS = List.of("layered", "plain");

    @TempDir
    Path work;

    @Test
    void imageVersionsPushedThroughTheLauncherShareStorageInTheLayerModeBucketOnAnS3Backend() throws Exception {
        Path big = Files.createDirectories(work.resolve("big"));
        Path small = Files.createDirectories(work.resolve("small"));
        for (int i = 0; i < 13; i++) {
            Files.writeString(big.resolve("file" + i + ".txt"), ImageLayers.text(i, 1_600_000, true));
        }
        for (int i = 0; i < 4; i++) {
            Files.writeString(small.resolve("conf" + i + ".txt"), ImageLayers.text(100 + i, 120_000, true));
        }
        List<Path> v1 = List.of(ImageLayers.tgz(big, work.resolve("big1.tgz"), work),
                ImageLayers.tgz(small, work.resolve("small1.tgz"), work));
        // a changed file in the middle and an added one that sorts first: every gzip stream differs from the first
        // changed byte on, so without layer mode nothing after it dedups (the in-process LayerModeRegistryTest's data)
        Files.writeString(big.resolve("file3.txt"), ImageLayers.text(50, 1_600_000, true));
        Files.writeString(big.resolve("added.txt"), ImageLayers.text(51, 300_000, true));
        Files.writeString(small.resolve("conf1.txt"), ImageLayers.text(150, 120_000, true));
        Files.writeString(small.resolve("added.txt"), ImageLayers.text(151, 40_000, true));
        List<Path> v2 = List.of(ImageLayers.tgz(big, work.resolve("big2.tgz"), work),
                ImageLayers.tgz(small, work.resolve("small2.tgz"), work));
        assertThat(Files.size(v1.get(0))).as("over the driver's 5 MiB chunk: a multipart upload")
                .isGreaterThan(5L << 20);
        long v2Bytes = Files.size(v2.get(0)) + Files.size(v2.get(1));

        S3ServerFixture s3 = S3ServerFixture.start();
        List<String> flags = List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(),
                "--s3-bucket", s3.createBucket(), "--s3-path-style");
        Map<String, String> env = Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(),
                "COFFER_BACKEND_SECRET_KEY", s3.secretKey(), "COFFER_LAYER_MODE", "layered=high");
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));

        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, flags, env)) {
            for (String bucket : BUCKETS) {
                StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://" + bucket).requireSuccess();
                try (RegistryOnCoffer registry = registry(gateway, bucket)) {
                    registry.push(v1, registry.host() + "/coffer/app:1");
                }
            }
        }
        Map<String, Long> afterV1 = storedBytes(gatewayDir, flags, env);
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, flags, env)) {
            for (String bucket : BUCKETS) {
                try (RegistryOnCoffer registry = registry(gateway, bucket)) {
                    String repo = registry.host() + "/coffer/app";
                    registry.push(v2, repo + ":2");
                    registry.assertLayersAre(repo, "1", v1);
                    registry.assertLayersAre(repo, "2", v2);
                    registry.assertExportHas(repo + ":2", Map.of("file3.txt", big.resolve("file3.txt"),
                            "conf1.txt", small.resolve("conf1.txt"), "added.txt", small.resolve("added.txt")));
                }
            }
        }
        Map<String, Long> afterV2 = storedBytes(gatewayDir, flags, env);

        long layeredAdded = afterV2.get("layered") - afterV1.get("layered");
        long plainAdded = afterV2.get("plain") - afterV1.get("plain");
        System.out.printf("[layer-registry-release] v2 layers %d bytes (gzip); v2 added %d bytes (%.1f %%) in layer"
                + " mode, %d bytes (%.1f %%) without%n", v2Bytes, layeredAdded, 100.0 * layeredAdded / v2Bytes,
                plainAdded, 100.0 * plainAdded / v2Bytes);
        assertThat(plainAdded).as("without layer mode v2's gzip streams share next to nothing with v1's")
                .isGreaterThan(v2Bytes * 9 / 10);
        // 75 % in the in-process test on this data (docs/BENCHMARKS.md): the added file shifts every later 512 KiB
        // piece of the token stream, and shifted pieces share sub-chunks with v1 only where they join v1's clusters
        assertThat(layeredAdded).as("in layer mode v2 shares the unchanged files' sub-chunks with v1")
                .isLessThan(v2Bytes * 4 / 5);
    }

    private RegistryOnCoffer registry(ShippedGateway gateway, String bucket) throws Exception {
        return RegistryOnCoffer.start(StockClients.ACCESS_KEY, StockClients.SECRET_KEY, gateway.endpoint().getPort(),
                bucket, work, "registry-" + bucket, false);
    }

    /** {@code ./coffer stats --json} on the stopped store: each bucket's stored bytes (referenced chunks). */
    private static Map<String, Long> storedBytes(Path gatewayDir, List<String> flags, Map<String, String> env)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("stats", "--json", "--data", "data"));
        args.addAll(flags);
        StockClients.Result r = ShippedGateway.launcher(gatewayDir, env, args.toArray(String[]::new));
        assertThat(r.exitCode()).as("coffer stats: %s", r.stderr()).isZero();
        Map<String, Long> stored = new HashMap<>();
        for (JsonNode b : new ObjectMapper().readTree(r.stdout()).get("buckets")) {
            stored.put(b.get("bucket").asText(), b.get("storedBytes").asLong());
        }
        assertThat(stored).containsKeys(BUCKETS.toArray(String[]::new));
        return stored;
    }
}

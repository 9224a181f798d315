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
        ImageLayers.TwoVersions image = ImageLayers.twoVersions(work);
        List<Path> v1 = image.v1();
        List<Path> v2 = image.v2();
        assertThat(Files.size(v1.get(0))).as("over the driver's 5 MiB chunk: a multipart upload")
                .isGreaterThan(5L << 20);
        long v2Bytes = image.v2Bytes();

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
                    registry.assertExportHas(repo + ":2", image.changed());
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

package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A Docker registry (distribution, the pinned release built from source by {@code ./coffer test}) that keeps its
 * repositories in a Coffer bucket through its S3 storage driver, driven by crane (go-containerregistry): push of an
 * image whose 12 MiB layer crosses the driver's 5 MiB multipart chunk size, export byte for byte, a copy into another
 * repository (a blob mount), tag listing, then a deleted image's blobs removed by the registry's garbage collector,
 * which walks the bucket and deletes in it, while the other image stays whole.
 */
class DockerRegistryTest {
    private static final int MIB = 1 << 20;
    private static final String BUCKET = "registry";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;
    private RegistryOnCoffer registry;

    @Test
    void pushPullCopyDeleteAndCollectGarbage() throws Exception {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        try (RegistryOnCoffer started = RegistryOnCoffer.start(gateway, BUCKET, work, "registry", true)) {
            registry = started;
            String host = registry.host();

            Path big = write("big.bin", random(1, 12 * MIB + 3));
            Path small = write("small.txt", "kept in a registry on Coffer\n".getBytes());
            registry.crane("append", "-f", tar("layer-big.tar", big), "-f", tar("layer-small.tar", small),
                    "-t", host + "/coffer/app:1");
            String digest = registry.crane("digest", host + "/coffer/app:1").strip();
            assertThat(digest).startsWith("sha256:");
            registry.assertExportHas(host + "/coffer/app:1", Map.of("big.bin", big, "small.txt", small));

            registry.crane("copy", host + "/coffer/app:1", host + "/other/app:2");
            assertThat(registry.crane("ls", host + "/other/app").lines()).containsExactly("2");
            assertThat(registry.crane("digest", host + "/other/app:2").strip()).isEqualTo(digest);

            Path doomed = write("doomed.bin", random(2, 3 * MIB));
            registry.crane("append", "-f", tar("layer-doomed.tar", doomed), "-t", host + "/coffer/doomed:1");
            List<String> doomedBlobs = blobKeys(registry.crane("manifest", host + "/coffer/doomed:1"));
            String doomedDigest = registry.crane("digest", host + "/coffer/doomed:1").strip();
            assertThat(bucketKeys(s3)).containsAll(doomedBlobs);

            registry.crane("delete", host + "/coffer/doomed@" + doomedDigest);
            ExternalClients.Result gc = ExternalClients.run(List.of(ExternalClients.registry().toString(),
                    "garbage-collect", "--delete-untagged", registry.config().toString()), Map.of(), work,
                    RegistryOnCoffer.TIMEOUT);
            gc.requireSuccess(List.of("registry", "garbage-collect"));
            List<String> left = bucketKeys(s3);
            assertThat(left).doesNotContainAnyElementsOf(doomedBlobs);
            assertThat(left).containsAll(blobKeys(registry.crane("manifest", host + "/other/app:2")));
            registry.assertExportHas(host + "/other/app:2", Map.of("big.bin", big, "small.txt", small));
        }
    }

    /** The bucket keys of the layer and config blobs a manifest names, as the S3 driver lays them out. */
    private static List<String> blobKeys(String manifestJson) throws IOException {
        JsonNode m = new ObjectMapper().readTree(manifestJson);
        List<String> digests = new ArrayList<>();
        digests.add(m.get("config").get("digest").asText());
        m.get("layers").forEach(l -> digests.add(l.get("digest").asText()));
        return digests.stream().map(d -> {
            String hex = d.substring("sha256:".length());
            return "docker/registry/v2/blobs/sha256/" + hex.substring(0, 2) + "/" + hex + "/data";
        }).toList();
    }

    private static List<String> bucketKeys(S3Client s3) {
        return s3.listObjectsV2Paginator(r -> r.bucket(BUCKET)).contents().stream().map(S3Object::key).toList();
    }

    private String tar(String name, Path file) {
        Path tar = work.resolve(name);
        registry.run(List.of("tar", "-cf", tar.toString(), "-C", file.getParent().toString(),
                file.getFileName().toString()));
        return tar.toString();
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path dir = Files.createDirectories(work.resolve("files-" + name));
        return Files.write(dir.resolve(name), bytes);
    }

    private static byte[] random(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}

package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void pushPullCopyDeleteAndCollectGarbage() throws Exception {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        int port = freePort();
        Path config = Files.writeString(work.resolve("config.yml"), """
                version: 0.1
                log:
                  level: warn
                  accesslog:
                    disabled: true
                storage:
                  s3:
                    accesskey: %s
                    secretkey: %s
                    region: us-east-1
                    regionendpoint: http://127.0.0.1:%d
                    forcepathstyle: true
                    bucket: %s
                    secure: false
                    v4auth: true
                    chunksize: 5242880
                    rootdirectory: /
                  delete:
                    enabled: true
                  redirect:
                    disable: true
                http:
                  addr: 127.0.0.1:%d
                  secret: coffer-registry-test
                """.formatted(gateway.accessKeyId(), gateway.secretKey(), gateway.port(), BUCKET, port));
        Process registry = new ProcessBuilder(ExternalClients.registry().toString(), "serve", config.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("registry.log").toFile()).start();
        try {
            awaitListening(port, registry);
            String host = "127.0.0.1:" + port;

            Path big = write("big.bin", random(1, 12 * MIB + 3));
            Path small = write("small.txt", "kept in a registry on Coffer\n".getBytes());
            crane("append", "-f", tar("layer-big.tar", big), "-f", tar("layer-small.tar", small),
                    "-t", host + "/coffer/app:1");
            String digest = crane("digest", host + "/coffer/app:1").strip();
            assertThat(digest).startsWith("sha256:");
            assertExportHas(host + "/coffer/app:1", Map.of("big.bin", big, "small.txt", small));

            crane("copy", host + "/coffer/app:1", host + "/other/app:2");
            assertThat(crane("ls", host + "/other/app").lines()).containsExactly("2");
            assertThat(crane("digest", host + "/other/app:2").strip()).isEqualTo(digest);

            Path doomed = write("doomed.bin", random(2, 3 * MIB));
            crane("append", "-f", tar("layer-doomed.tar", doomed), "-t", host + "/coffer/doomed:1");
            List<String> doomedBlobs = blobKeys(crane("manifest", host + "/coffer/doomed:1"));
            String doomedDigest = crane("digest", host + "/coffer/doomed:1").strip();
            assertThat(bucketKeys(s3)).containsAll(doomedBlobs);

            crane("delete", host + "/coffer/doomed@" + doomedDigest);
            ExternalClients.Result gc = ExternalClients.run(List.of(ExternalClients.registry().toString(),
                    "garbage-collect", "--delete-untagged", config.toString()), Map.of(), work, TIMEOUT);
            gc.requireSuccess(List.of("registry", "garbage-collect"));
            List<String> left = bucketKeys(s3);
            assertThat(left).doesNotContainAnyElementsOf(doomedBlobs);
            assertThat(left).containsAll(blobKeys(crane("manifest", host + "/other/app:2")));
            assertExportHas(host + "/other/app:2", Map.of("big.bin", big, "small.txt", small));
        } finally {
            registry.destroy();
            if (!registry.waitFor(10, TimeUnit.SECONDS)) {
                registry.destroyForcibly();
            }
        }
    }

    /** Exports the image's flattened file system and compares the named files with the originals, byte for byte. */
    private void assertExportHas(String image, Map<String, Path> files) throws IOException {
        Path out = work.resolve("export-" + Integer.toHexString(image.hashCode()));
        Files.createDirectories(out);
        Path tar = out.resolve("fs.tar");
        crane("export", image, tar.toString());
        run(List.of("tar", "-xf", tar.toString(), "-C", out.toString()));
        for (Map.Entry<String, Path> f : files.entrySet()) {
            assertThat(Files.readAllBytes(out.resolve(f.getKey()))).as(f.getKey())
                    .isEqualTo(Files.readAllBytes(f.getValue()));
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

    private String crane(String... args) {
        List<String> command = new ArrayList<>(List.of(ExternalClients.crane().toString()));
        command.addAll(List.of(args));
        command.add("--insecure");
        return run(command);
    }

    private String run(List<String> command) {
        return ExternalClients.run(command, Map.of("DOCKER_CONFIG", work.toString()), work, TIMEOUT)
                .requireSuccess(command).stdout();
    }

    private String tar(String name, Path file) {
        Path tar = work.resolve(name);
        run(List.of("tar", "-cf", tar.toString(), "-C", file.getParent().toString(), file.getFileName().toString()));
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void awaitListening(int port, Process registry) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!registry.isAlive()) {
                throw new AssertionError("the registry exited: " + Files.readString(work.resolve("registry.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the registry did not listen on " + port + ": "
                + Files.readString(work.resolve("registry.log")));
    }
}

package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * rclone (the pinned release, built from source by {@code ./coffer test}) against the gateway on the real engine, as
 * an S3 remote of provider "Other" with path-style addressing: mkdir, copy of a tree whose largest file crosses rclone's
 * multipart cutoff, check (rclone compares MD5s: the ETag of single-part objects, its own md5chksum metadata of
 * multipart ones), listing sizes, sync with a change and a deletion, copy back byte for byte, purge.
 */
class RcloneTest {
    private static final int MIB = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void copyCheckSyncAndCopyBackATree() throws IOException {
        Path src = work.resolve("src");
        write(src.resolve("a.txt"), "hello rclone".getBytes(StandardCharsets.US_ASCII));
        write(src.resolve("empty"), new byte[0]);
        write(src.resolve("dir/b.bin"), random(1, 300 * 1024));
        write(src.resolve("dir/big.bin"), random(2, 23 * MIB + 5));
        write(src.resolve("dir/sub/c.bin"), random(3, 5 * MIB + 1));
        String remote = "coffer:rclone-bucket/tree";

        rclone("mkdir", "coffer:rclone-bucket");
        rclone("copy", src.toString(), remote, "--s3-upload-cutoff", "8M", "--s3-chunk-size", "5M");
        rclone("check", src.toString(), remote);
        assertThat(remoteSizes(remote)).isEqualTo(localSizes(src));

        Files.delete(src.resolve("a.txt"));
        write(src.resolve("dir/b.bin"), random(4, 200 * 1024));
        rclone("sync", src.toString(), remote, "--s3-upload-cutoff", "8M", "--s3-chunk-size", "5M");
        rclone("check", src.toString(), remote);
        assertThat(remoteSizes(remote)).isEqualTo(localSizes(src)).doesNotContainKey("a.txt");

        Path back = work.resolve("back");
        rclone("copy", remote, back.toString());
        for (String file : localSizes(src).keySet()) {
            assertThat(Files.readAllBytes(back.resolve(file))).as(file)
                    .isEqualTo(Files.readAllBytes(src.resolve(file)));
        }
        assertThat(localSizes(back)).isEqualTo(localSizes(src));

        rclone("purge", "coffer:rclone-bucket");
        assertThat(gateway.client().listBuckets().buckets()).noneMatch(b -> b.name().equals("rclone-bucket"));
    }

    private String rclone(String... args) {
        return new Rclone(gateway, work).run(args);
    }

    private Map<String, Long> remoteSizes(String remote) throws IOException {
        Map<String, Long> sizes = new TreeMap<>();
        for (JsonNode n : JSON.readTree(rclone("lsjson", "-R", "--files-only", remote))) {
            sizes.put(n.get("Path").asText(), n.get("Size").asLong());
        }
        return sizes;
    }

    private static Map<String, Long> localSizes(Path root) throws IOException {
        Map<String, Long> sizes = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                sizes.put(root.relativize(p).toString().replace('\\', '/'), Files.size(p));
            }
        }
        return sizes;
    }

    private static void write(Path file, byte[] data) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, data);
    }

    private static byte[] random(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}

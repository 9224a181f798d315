package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.layer.LayerModePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * aws-cli's multipart upload (s3api create-multipart-upload, upload-part, complete-multipart-upload) of two versions of
 * a .tgz ({@code tar czf} of a directory, one file changed and one added) into a layer-mode bucket of an in-process
 * gateway: each comes back byte for byte, whole and in a range across a part boundary, with the multipart ETag; after
 * garbage collection (grace 0: the parts of a layer are garbage once it is committed) the second version has added
 * well under half its size to the backend. The engine's minimum part size is lowered to 256 KiB so that a .tgz of a
 * few hundred KB makes several parts.
 */
class LayerModeMultipartAwsCliTest {
    private static final String BUCKET = "layers";
    private static final int PART = 256 << 10;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension.withEngine(dir -> Coffer.builder().directory(dir)
            .minPartSize(PART).gcGrace(Duration.ZERO).layers(LayerModePolicy.parse(BUCKET + "=high",
                    LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE, LayerModePolicy.DEFAULT_THRESHOLD)).build());

    @TempDir
    Path work;

    @Test
    void multipartTgzVersionsComeBackByteForByteWithTheMultipartEtagAndShareStorage() throws Exception {
        Path tree = Files.createDirectories(work.resolve("tree"));
        for (int i = 0; i < 40; i++) {
            Files.writeString(tree.resolve("file" + i + ".txt"), text(i, 60_000));
        }
        Path v1 = tgz(tree, "v1.tgz");
        Files.writeString(tree.resolve("file12.txt"), text(99, 60_000));
        Files.writeString(tree.resolve("added.txt"), text(100, 20_000));
        Path v2 = tgz(tree, "v2.tgz");
        assertThat(Files.size(v1)).isGreaterThan(PART + 100L);
        Path config = Files.writeString(work.resolve("aws-config"), "[default]\nregion = us-east-1\n");
        aws(config, "s3", "mb", "s3://" + BUCKET);
        Path blobs = gateway.dataDir().resolve("blobs");

        upload(config, "image/v1.tgz", v1);
        gateway.engine().collectGarbage();
        long before = size(blobs);
        upload(config, "image/v2.tgz", v2);
        gateway.engine().collectGarbage();
        long added = size(blobs) - before;

        for (Path v : List.of(v1, v2)) {
            String key = "image/" + v.getFileName();
            byte[] want = Files.readAllBytes(v);
            Path back = work.resolve("back-" + v.getFileName());
            aws(config, "s3", "cp", "s3://" + BUCKET + "/" + key, back.toString());
            assertThat(Files.readAllBytes(back)).isEqualTo(want);
            Path range = work.resolve("range-" + v.getFileName());
            int end = Math.min(want.length, PART + 100_000);
            aws(config, "s3api", "get-object", "--bucket", BUCKET, "--key", key, "--range",
                    "bytes=" + (PART - 100) + "-" + (end - 1), range.toString());
            assertThat(Files.readAllBytes(range)).isEqualTo(Arrays.copyOfRange(want, PART - 100, end));
            JsonNode head = json(aws(config, "s3api", "head-object", "--bucket", BUCKET, "--key", key));
            assertThat(head.get("ETag").asText()).isEqualTo("\"" + multipartEtag(want) + "\"");
            assertThat(head.get("ContentLength").asLong()).isEqualTo(want.length);
        }
        System.out.printf("[layer-multipart-cli] v2 %d bytes in %d parts; added %d bytes to the backend%n",
                Files.size(v2), parts(Files.readAllBytes(v2)).size(), added);
        assertThat(added).isLessThan(Files.size(v2) / 2);
    }

    /** create-multipart-upload, one upload-part per 256 KiB, complete-multipart-upload, as aws-cli's s3api does. */
    private void upload(Path config, String key, Path file) throws Exception {
        String uploadId = json(aws(config, "s3api", "create-multipart-upload", "--bucket", BUCKET, "--key", key))
                .get("UploadId").asText();
        List<byte[]> parts = parts(Files.readAllBytes(file));
        List<Map<String, Object>> done = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Path body = Files.write(work.resolve("part-" + i), parts.get(i));
            String etag = json(aws(config, "s3api", "upload-part", "--bucket", BUCKET, "--key", key, "--upload-id",
                    uploadId, "--part-number", String.valueOf(i + 1), "--body", body.toString())).get("ETag").asText();
            done.add(Map.of("ETag", etag, "PartNumber", i + 1));
        }
        String list = new ObjectMapper().writeValueAsString(Map.of("Parts", done));
        JsonNode completed = json(aws(config, "s3api", "complete-multipart-upload", "--bucket", BUCKET, "--key", key,
                "--upload-id", uploadId, "--multipart-upload", list));
        assertThat(completed.get("ETag").asText()).endsWith("-" + parts.size() + "\"");
    }

    private static List<byte[]> parts(byte[] data) {
        List<byte[]> parts = new ArrayList<>();
        for (int at = 0; at < data.length; at += PART) {
            parts.add(Arrays.copyOfRange(data, at, Math.min(data.length, at + PART)));
        }
        return parts;
    }

    private static String multipartEtag(byte[] data) throws Exception {
        MessageDigest md5OfMd5s = MessageDigest.getInstance("MD5");
        for (byte[] p : parts(data)) {
            md5OfMd5s.update(MessageDigest.getInstance("MD5").digest(p));
        }
        return HexFormat.of().formatHex(md5OfMd5s.digest()) + "-" + parts(data).size();
    }

    private String aws(Path config, String... args) {
        return new AwsCli(gateway, work, config).run(args);
    }

    private static JsonNode json(String s) throws IOException {
        return new ObjectMapper().readTree(s);
    }

    /** {@code tar czf} of the directory (GNU tar and gzip), names sorted, times fixed. */
    private Path tgz(Path dir, String name) {
        Path file = work.resolve(name);
        List<String> command = List.of("tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "-czf",
                file.toString(), "-C", dir.toString(), ".");
        ExternalClients.run(command, Map.of(), work, Duration.ofMinutes(1)).requireSuccess(command);
        return file;
    }

    /** The text of LayerModeReleaseIT: words of a small vocabulary. */
    private static String text(long seed, int length) {
        String[] words = {"layer", "image", "docker", "registry", "coffer", "gzip", "tar", "file", "usr", "lib",
            "bin", "share", "config", "value", "name", "version", "package", "module", "system", "data"};
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(length + 32);
        while (sb.length() < length) {
            sb.append(words[r.nextInt(words.length)]).append(r.nextInt(10) == 0 ? '\n' : ' ');
        }
        return sb.substring(0, length);
    }

    private static long size(Path dir) throws IOException {
        assertThat(dir).isDirectory();
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}

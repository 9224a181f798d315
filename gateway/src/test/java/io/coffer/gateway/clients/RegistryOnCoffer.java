package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.testing.CofferGatewayExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Docker registry (distribution, built by {@code ./coffer test}) that keeps its repositories in a bucket of a Coffer
 * gateway through its S3 storage driver (5 MiB multipart chunks, so larger layers take the multipart path), and crane
 * (go-containerregistry) to drive it. One registry process per instance, stopped by {@link #close}.
 */
public final class RegistryOnCoffer implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final Path work;
    private final Path config;
    private final Path log;
    private final Process process;
    private final int port;

    private RegistryOnCoffer(Path work, Path config, Path log, Process process, int port) {
        this.work = work;
        this.config = config;
        this.log = log;
        this.process = process;
        this.port = port;
    }

    /** {@link #start(String, String, int, String, Path, String, boolean)} on an in-process gateway. */
    static RegistryOnCoffer start(CofferGatewayExtension gateway, String bucket, Path work, String name,
                                  boolean deletes) throws Exception {
        return start(gateway.accessKeyId(), gateway.secretKey(), gateway.port(), bucket, work, name, deletes);
    }

    /**
     * Writes {@code work/NAME.yml} for {@code bucket} of the gateway on loopback {@code gatewayPort} with the given
     * credentials (with {@code deletes}, the registry's delete API on) and starts the registry on a free port, waiting
     * until it listens.
     */
    public static RegistryOnCoffer start(String accessKey, String secretKey, int gatewayPort, String bucket, Path work,
                                         String name, boolean deletes) throws Exception {
        int port = freePort();
        Path config = Files.writeString(work.resolve(name + ".yml"), """
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
                    enabled: %s
                  redirect:
                    disable: true
                http:
                  addr: 127.0.0.1:%d
                  secret: coffer-registry-test-%s
                """.formatted(accessKey, secretKey, gatewayPort, bucket, deletes, port,
                name));
        Path log = work.resolve(name + "-registry.log");
        Process process = new ProcessBuilder(ExternalClients.registry().toString(), "serve", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RegistryOnCoffer registry = new RegistryOnCoffer(work, config, log, process, port);
        try {
            registry.awaitListening();
        } catch (Exception | AssertionError e) {
            registry.close();
            throw e;
        }
        return registry;
    }

    /** host:port, the prefix of this registry's image references. */
    public String host() {
        return "127.0.0.1:" + port;
    }

    Path config() {
        return config;
    }

    /** Runs crane with {@code args} against this (plain-HTTP) registry; its standard output. */
    public String crane(String... args) {
        List<String> command = new ArrayList<>(List.of(ExternalClients.crane().toString()));
        command.addAll(List.of(args));
        command.add("--insecure");
        return run(command);
    }

    /** Runs a command in the work directory (crane's DOCKER_CONFIG there); its standard output. */
    String run(List<String> command) {
        return ExternalClients.run(command, Map.of("DOCKER_CONFIG", work.toString()), work, TIMEOUT)
                .requireSuccess(command).stdout();
    }

    /** Exports the image's flattened file system and compares the named files with the originals, byte for byte. */
    public void assertExportHas(String image, Map<String, Path> files) throws IOException {
        Path out = Files.createDirectories(work.resolve("export-" + Integer.toHexString(image.hashCode())));
        Path tar = out.resolve("fs.tar");
        crane("export", image, tar.toString());
        run(List.of("tar", "-xf", tar.toString(), "-C", out.toString()));
        for (Map.Entry<String, Path> f : files.entrySet()) {
            assertThat(Files.readAllBytes(out.resolve(f.getKey()))).as(f.getKey())
                    .isEqualTo(Files.readAllBytes(f.getValue()));
        }
    }

    /** An image of the given .tar.gz layers, which crane pushes as they are (their bytes are the layer blobs). */
    public void push(List<Path> layers, String ref) {
        List<String> args = new ArrayList<>(List.of("append"));
        for (Path l : layers) {
            args.addAll(List.of("-f", l.toString()));
        }
        args.addAll(List.of("-t", ref));
        crane(args.toArray(String[]::new));
    }

    /** The image's layers are the files' digests, and each layer blob pulls back as the file, byte for byte. */
    public void assertLayersAre(String repo, String tag, List<Path> files) throws Exception {
        JsonNode manifest = new ObjectMapper().readTree(crane("manifest", repo + ":" + tag));
        List<String> digests = new ArrayList<>();
        manifest.get("layers").forEach(l -> digests.add(l.get("digest").asText()));
        List<String> want = new ArrayList<>();
        for (Path f : files) {
            want.add("sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(Files.readAllBytes(f))));
        }
        assertThat(digests).containsExactlyElementsOf(want);
        for (int i = 0; i < files.size(); i++) {
            Path back = work.resolve("pulled-" + tag + "-" + i + "-" + port + ".tgz");
            List<String> command = List.of(ExternalClients.crane().toString(), "blob", repo + "@" + digests.get(i),
                    "--insecure");
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(back.toFile());
            pb.environment().put("DOCKER_CONFIG", work.toString());
            Process p = pb.redirectError(work.resolve("crane-blob.err").toFile()).start();
            assertThat(p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("crane blob finished").isTrue();
            assertThat(p.exitValue()).as("crane blob: %s", Files.readString(work.resolve("crane-blob.err")))
                    .isZero();
            assertThat(Files.readAllBytes(back)).as("layer %d of %s", i, tag).isEqualTo(Files.readAllBytes(
                    files.get(i)));
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    private void awaitListening() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the registry exited: " + Files.readString(log, StandardCharsets.UTF_8));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the registry did not listen on " + port + ": "
                + Files.readString(log, StandardCharsets.UTF_8));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

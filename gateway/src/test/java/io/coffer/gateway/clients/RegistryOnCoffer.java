package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Docker registry (distribution, built by {@code ./coffer test}) that keeps its repositories in a bucket of a Coffer
 * gateway through its S3 storage driver (5 MiB multipart chunks, so larger layers take the multipart path), and crane
 * (go-containerregistry) to drive it. One registry process per instance, stopped by {@link #close}.
 */
final class RegistryOnCoffer implements AutoCloseable {
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

    /**
     * Writes {@code work/NAME.yml} for {@code bucket} of {@code gateway} (with {@code deletes}, the registry's delete
     * API on) and starts the registry on a free port, waiting until it listens.
     */
    static RegistryOnCoffer start(CofferGatewayExtension gateway, String bucket, Path work, String name,
                                  boolean deletes) throws Exception {
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
                """.formatted(gateway.accessKeyId(), gateway.secretKey(), gateway.port(), bucket, deletes, port,
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
    String host() {
        return "127.0.0.1:" + port;
    }

    Path config() {
        return config;
    }

    /** Runs crane with {@code args} against this (plain-HTTP) registry; its standard output. */
    String crane(String... args) {
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
    void assertExportHas(String image, Map<String, Path> files) throws IOException {
        Path out = Files.createDirectories(work.resolve("export-" + Integer.toHexString(image.hashCode())));
        Path tar = out.resolve("fs.tar");
        crane("export", image, tar.toString());
        run(List.of("tar", "-xf", tar.toString(), "-C", out.toString()));
        for (Map.Entry<String, Path> f : files.entrySet()) {
            assertThat(Files.readAllBytes(out.resolve(f.getKey()))).as(f.getKey())
                    .isEqualTo(Files.readAllBytes(f.getValue()));
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

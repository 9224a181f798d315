package io.coffer.gateway.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A key server as an operator runs one beside several gateways: {@code ./coffer keyserver init} (P-256 OPRF, a server
 * certificate for 127.0.0.1), one client certificate per gateway ({@code keyserver issue-client}), and
 * {@code ./coffer keyserver serve} on loopback ports in a JVM of its own, ready when its admin port's
 * {@code /health/ready} answers 200.
 */
final class KeyServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Process process;
    private final Path log;
    private final int httpsPort;

    private KeyServerProcess(Path dir, Process process, Path log, int httpsPort) {
        this.dir = dir;
        this.process = process;
        this.log = log;
        this.httpsPort = httpsPort;
    }

    /** Makes a key-server directory in {@code work/ks} with a client certificate for each of {@code clients}. */
    static KeyServerProcess start(Path work, List<String> clients) throws Exception {
        Path dir = work.resolve("ks");
        run(work, "keyserver", "init", dir.toString(), "--algorithm", "p256", "--server-name", "localhost");
        for (String client : clients) {
            run(work, "keyserver", "issue-client", "--dir", dir.toString(), client);
        }
        int https = ShippedGateway.freePort();
        int udp = ShippedGateway.freePort();
        int admin = ShippedGateway.freePort();
        Path log = work.resolve("keyserver.log");
        ProcessBuilder pb = new ProcessBuilder(ShippedGateway.REPOSITORY.resolve("coffer").toString(), "keyserver",
                "serve", "--dir", dir.toString(), "--bind", "127.0.0.1", "--https-port", Integer.toString(https),
                "--udp-port", Integer.toString(udp), "--admin-port", Integer.toString(admin), "--rate-limit", "none")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        KeyServerProcess ks = new KeyServerProcess(dir, pb.start(), log, https);
        try {
            ks.awaitReady(admin);
        } catch (Exception | AssertionError e) {
            ks.close();
            throw e;
        }
        return ks;
    }

    /** The flags that point a gateway at this server as client {@code client}. */
    List<String> gatewayFlags(String client) {
        return List.of("--keyserver", "127.0.0.1:" + httpsPort, "--keyserver-dir", dir.toString(),
                "--keyserver-client", client);
    }

    private static void run(Path work, String... args) throws Exception {
        StockClients.Result r = ShippedGateway.launcher(work, Map.of(), args);
        if (r.exitCode() != 0) {
            throw new AssertionError("./coffer " + String.join(" ", args) + " failed: " + r.stdout() + r.stderr());
        }
    }

    private void awaitReady(int adminPort) throws InterruptedException {
        LaunchedProcess.awaitReady(process, adminPort, START_TIMEOUT, "./coffer keyserver serve", this::output,
                Optional::empty);
    }

    private String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        LaunchedProcess.stop(process, Duration.ofSeconds(30));
    }
}

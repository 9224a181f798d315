package io.coffer.gateway.release;

import io.coffer.sdk.testing.PostgresServer;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scale-out topology of docs/OPERATIONS.md on one machine, for the soak and scale runs: one S3 backend (s3proxy,
 * in this JVM), one PostgreSQL database, one master-key file, one key server ({@link KeyServerProcess}), and gateways
 * started from the launcher ({@link ShippedGateway}, {@code -Xmx512m} through {@code COFFER_JAVA_OPTS}), each with a
 * data directory and a key-server client certificate of its own. Reads each gateway's heap and counters from its
 * admin {@code /metrics} and its CPU time from the operating system.
 */
final class SoakDeployment implements AutoCloseable {
    static final String HEAP = "512m";
    private static final Pattern METRIC = Pattern.compile("^([a-z_]+)(\\{[^}]*})?\\s+([0-9.eE+-]+)$",
            Pattern.MULTILINE);

    private final Path work;
    private final List<String> storeFlags;
    private final Map<String, String> env;
    private final KeyServerProcess keyServer;
    private final List<ShippedGateway> gateways = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SoakDeployment(Path work, List<String> storeFlags, Map<String, String> env, KeyServerProcess keyServer) {
        this.work = work;
        this.storeFlags = storeFlags;
        this.env = env;
        this.keyServer = keyServer;
    }

    /** The shared parts, and a key-server client certificate for each of up to {@code maxGateways} gateways. */
    static SoakDeployment start(Path work, int maxGateways) throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        PostgresServer pg = PostgresServer.get();
        String database = pg.createDatabase("soak_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000);
        List<String> flags = List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(), "--s3-bucket",
                s3.createBucket(), "--s3-path-style", "--metadata", database, "--master-key",
                work.resolve("master.key").toString());
        Map<String, String> env = Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(), "COFFER_BACKEND_SECRET_KEY",
                s3.secretKey(), "COFFER_METADATA_USER", pg.user(), "COFFER_METADATA_PASSWORD", pg.password(),
                "COFFER_JAVA_OPTS", "-Xmx" + HEAP);
        List<String> clients = new ArrayList<>();
        for (int i = 1; i <= maxGateways; i++) {
            clients.add("gw-" + i);
        }
        return new SoakDeployment(work, flags, env, KeyServerProcess.start(work, clients));
    }

    /** Starts one more gateway with {@code extraFlags} (e.g. gc settings); the first one makes the store. */
    ShippedGateway addGateway(List<String> extraFlags) throws Exception {
        int n = gateways.size() + 1;
        List<String> flags = new ArrayList<>(storeFlags);
        flags.addAll(keyServer.gatewayFlags("gw-" + n));
        flags.addAll(extraFlags);
        ShippedGateway g = ShippedGateway.start(Files.createDirectories(work.resolve("gw-" + n)), flags, env);
        gateways.add(g);
        return g;
    }

    List<ShippedGateway> gateways() {
        return List.copyOf(gateways);
    }

    /** {@code ./coffer fsck} on the store (from a directory of its own), as an operator runs it beside the gateways. */
    StockClients.Result fsck() throws Exception {
        Path dir = Files.createDirectories(work.resolve("fsck-" + System.nanoTime()));
        List<String> args = new ArrayList<>(List.of("fsck", "--data", "data"));
        args.addAll(storeFlags);
        return ShippedGateway.launcher(dir, env, args.toArray(String[]::new));
    }

    /** {@code POST /admin/gc} on {@code g}: the status and the body (the pass's report as JSON, or why not). */
    HttpResponse<String> collect(ShippedGateway g) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(g.adminEndpoint().resolve("/admin/gc"))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The gateway's /metrics page. */
    String metrics(ShippedGateway g) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(g.adminEndpoint().resolve("/metrics"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("/metrics answered " + r.statusCode());
        }
        return r.body();
    }

    /** The sum of every series of {@code name} whose labels contain {@code labelPart} ("" for all). */
    static double sum(String metrics, String name, String labelPart) {
        double total = 0;
        Matcher m = METRIC.matcher(metrics);
        while (m.find()) {
            String labels = m.group(2) == null ? "" : m.group(2);
            if (m.group(1).equals(name) && labels.contains(labelPart)) {
                total += Double.parseDouble(m.group(3));
            }
        }
        return total;
    }

    /** Heap in use now: the sum of the heap pools' {@code jvm_memory_used_bytes}. */
    long heapUsed(ShippedGateway g) throws IOException, InterruptedException {
        return (long) sum(metrics(g), "jvm_memory_used_bytes", "area=\"heap\"");
    }

    /** The CPU time the gateway's JVM has used so far (the launcher execs it: the JVM runs under the given port). */
    Duration cpu(ShippedGateway g) {
        String port = "--admin-port " + g.adminEndpoint().getPort();
        Optional<Duration> cpu = ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(port)).orElse(false))
                .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
                .findFirst().flatMap(p -> p.info().totalCpuDuration());
        return cpu.orElseThrow(() -> new IllegalStateException("no JVM found for the gateway with " + port));
    }

    /** Stops everything and keeps each gateway's output (the access log) in {@code target/soak/logs-TIME/}. */
    @Override
    public void close() throws Exception {
        Path logs = Files.createDirectories(Path.of("target", "soak", "logs-" + System.currentTimeMillis()));
        for (int i = 0; i < gateways.size(); i++) {
            gateways.get(i).close();
            Files.writeString(logs.resolve("gw-" + (i + 1) + ".log"), gateways.get(i).output());
        }
        keyServer.close();
    }
}

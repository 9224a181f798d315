package io.coffer.gateway.release;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The gateway the way a user starts it from a checkout: the {@code ./coffer} launcher at the repository root, which
 * runs {@code gateway/target/coffer-gateway-*.jar} with {@code gateway/target/lib/*} (what {@code mvn package} laid
 * out before failsafe runs) in a JVM of its own, with its default JVM options. Credentials come from
 * {@code COFFER_ACCESS_KEY}/{@code COFFER_SECRET_KEY} ({@link StockClients}' identity); every other setting from the
 * flags given.
 */
final class ShippedGateway implements AutoCloseable {
    static final Path REPOSITORY = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** What the launcher prints when it would rebuild: the jar under test must be the one the build just made. */
    static final String REBUILDING = "coffer: building";

    private final Process process;
    private final Path log;
    private final int port;
    private final int adminPort;

    private ShippedGateway(Process process, Path log, int port, int adminPort) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.adminPort = adminPort;
    }

    /**
     * Runs {@code ./coffer serve --data data --bind 127.0.0.1 --port P --admin-port A} plus {@code flags} in
     * {@code work}, with {@code env} added to an environment cleared of {@code COFFER_*}, and waits until /health/ready
     * answers 200. The data directory is given relative, as a user in their own directory gives it: the store must
     * appear in {@code work/data}, not in the checkout the launcher lives in.
     */
    static ShippedGateway start(Path work, List<String> flags, Map<String, String> env) throws Exception {
        Path data = work.resolve("data");
        Path log = work.resolve("gateway.log");
        int port = freePort();
        int adminPort = freePort();
        List<String> command = new ArrayList<>(List.of(REPOSITORY.resolve("coffer").toString(), "serve",
                "--data", "data", "--bind", "127.0.0.1", "--port", Integer.toString(port),
                "--admin-port", Integer.toString(adminPort)));
        command.addAll(flags);
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        pb.environment().put("COFFER_ACCESS_KEY", StockClients.ACCESS_KEY);
        pb.environment().put("COFFER_SECRET_KEY", StockClients.SECRET_KEY);
        pb.environment().putAll(env);
        ShippedGateway gateway = new ShippedGateway(pb.start(), log, port, adminPort);
        try {
            gateway.awaitReady(adminPort);
            // with --master-key FILE the key lives there; the data directory still holds the lock file
            Path mark = data.resolve(flags.contains("--master-key") ? "coffer.lock" : "master.key");
            if (!Files.isRegularFile(mark)) {
                throw new AssertionError("--data data did not resolve against the caller's directory: no store in "
                        + data + "; the launcher's output:\n" + gateway.output());
            }
        } catch (Exception | AssertionError e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    private void awaitReady(int adminPort) throws InterruptedException {
        LaunchedProcess.awaitReady(process, adminPort, START_TIMEOUT, "./coffer serve", this::output,
                () -> output().contains(REBUILDING) ? Optional.of("the launcher rebuilt the gateway instead of running"
                        + " the jar the build made (a source is newer than the jar?)") : Optional.empty());
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The admin listener, as the offline verbs' {@code --admin} option takes it. */
    URI adminEndpoint() {
        return URI.create("http://127.0.0.1:" + adminPort);
    }

    /**
     * Runs {@code ./coffer ARGS} in {@code work} to completion, as a user runs a maintenance verb (an environment
     * cleared of {@code COFFER_*} plus {@code env}), and returns its exit status and output.
     */
    static StockClients.Result launcher(Path work, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(REPOSITORY.resolve("coffer").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(work, "launcher", ".out");
        Path err = Files.createTempFile(work, "launcher", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(START_TIMEOUT.toSeconds() * 5, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("./coffer " + String.join(" ", args) + " did not finish; its output:\n"
                    + Files.readString(out) + Files.readString(err));
        }
        StockClients.Result r = new StockClients.Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        if (r.stdout().contains(REBUILDING) || r.stderr().contains(REBUILDING)) {
            throw new AssertionError("the launcher rebuilt the gateway instead of running the jar the build made");
        }
        return r;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Everything the launcher and the gateway printed so far. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** The running JVM's arguments (the launcher execs it, so this process is the JVM), as the OS reports them. */
    List<String> jvmArguments() {
        return List.of(process.info().arguments().orElseThrow(
                () -> new AssertionError("the OS does not report the gateway's arguments")));
    }

    /** SIGKILL to the gateway's JVM (the launcher execs it) and anything it started: a crash, no shutdown hook. */
    void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM (the gateway drains and stops), then a forced kill; also to a build the launcher started. */
    @Override
    public void close() throws InterruptedException {
        LaunchedProcess.stop(process, Duration.ofSeconds(60));
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

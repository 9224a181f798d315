package io.coffer.benchmarks.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A server the benchmark drives, in its own JVM: on this JVM's classpath, s3proxy's own {@code Main} with a properties
 * file, {@code coffer por-server} or a {@link TcpRelay}; from a checkout's launcher, {@code coffer serve} configured
 * through {@code COFFER_*} variables. Output goes to a log file.
 */
final class ServerProcess implements AutoCloseable {
    /**
     * How long a server may take to answer: 90 s, or {@code COFFER_BENCH_START_SECONDS} (a gateway with PoR on opens
     * its store first, which on a loaded two-core machine took longer than 90 s).
     */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(
            Long.parseLong(System.getenv().getOrDefault("COFFER_BENCH_START_SECONDS", "90")));
    /** Linux reports thread CPU times in USER_HZ ticks, 100 per second on every mainstream architecture. */
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;

    private final String name;
    private final Process process;
    private final Path log;
    private final int port;

    private ServerProcess(String name, Process process, Path log, int port) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** s3proxy's {@code Main} with {@code properties} (its endpoint is set here, on a free loopback port). */
    static ServerProcess s3proxy(String name, Path dir, String heap, Properties properties) throws Exception {
        int port = freePort();
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".properties");
        try (var w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "s3proxy for GatewayBenchmark: " + name);
        }
        List<String> cmd = java(heap);
        cmd.addAll(List.of("org.gaul.s3proxy.Main", "--properties", file.toString()));
        return start(name, dir, cmd, Map.of(), port);
    }

    /**
     * {@code launcher serve} (the repository's {@code coffer} script, which execs the JVM, so the process is the
     * gateway's JVM) with {@code env}, {@code -Xmx heap} and {@code jvmOptions} in {@code COFFER_JAVA_OPTS}.
     */
    static ServerProcess cofferLauncher(String name, Path dir, String heap, Map<String, String> env,
            List<String> jvmOptions, Path launcher) throws Exception {
        int port = freePort();
        int admin = freePort();
        return launched(name, dir, heap, env, jvmOptions, launcher, port, List.of("serve", "--bind", "127.0.0.1",
                "--port", Integer.toString(port), "--admin-port", Integer.toString(admin)));
    }

    /**
     * {@code launcher por-server} on a free loopback port over {@code data}, 2^k blocks of {@code blockSize} bytes and
     * write batches of 2^batch (null: the server's default), with the launcher's options for it and then
     * {@code jvmOptions}; its session key is {@code data/session.key}.
     */
    static ServerProcess porServer(String name, Path dir, String heap, Path data, int k, int blockSize, String batch,
            List<String> jvmOptions, Path launcher) throws Exception {
        int port = freePort();
        List<String> args = new ArrayList<>(List.of("por-server", "--data", data.toString(),
                "--bind", "127.0.0.1", "--port", Integer.toString(port), "--k", Integer.toString(k),
                "--block-size", Integer.toString(blockSize)));
        if (batch != null) {
            args.addAll(List.of("--batch", batch));
        }
        return launched(name, dir, heap, Map.of(), jvmOptions, launcher, port, args);
    }

    /** The launcher with {@code args}, {@code -Xmx heap} and {@code jvmOptions} in {@code COFFER_JAVA_OPTS}. */
    private static ServerProcess launched(String name, Path dir, String heap, Map<String, String> env,
            List<String> jvmOptions, Path launcher, int port, List<String> args) throws Exception {
        Map<String, String> withJvm = new LinkedHashMap<>(env);
        List<String> jvm = new ArrayList<>();
        jvm.add("-Xmx" + heap);
        jvm.addAll(jvmOptions);
        withJvm.put("COFFER_JAVA_OPTS", String.join(" ", jvm));
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher.toAbsolutePath().toString());
        cmd.addAll(args);
        return start(name, dir, cmd, withJvm, port);
    }

    /** {@link TcpRelay} from a free port to {@code targetPort}. */
    static ServerProcess relay(String name, Path dir, String heap, int targetPort) throws Exception {
        int port = freePort();
        List<String> cmd = java(heap);
        cmd.addAll(List.of(TcpRelay.class.getName(), Integer.toString(port), Integer.toString(targetPort)));
        return start(name, dir, cmd, Map.of(), port);
    }

    private static List<String> java(String heap) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }

    private static ServerProcess start(String name, Path dir, List<String> cmd, Map<String, String> env, int port)
            throws Exception {
        Files.createDirectories(dir);
        Path log = dir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        ServerProcess server = new ServerProcess(name, p, log, port);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!listening(port)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException(name + " did not start; its output:\n" + server.output());
            }
            Thread.sleep(100);
        }
        return server;
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** CPU seconds this JVM has used, all threads. */
    double cpuSeconds() {
        return ProcessHandle.of(pid()).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos)
                .orElse(0L) / 1e9;
    }

    /**
     * CPU seconds of this JVM's JIT compiler threads (HotSpot names them {@code C1 CompilerThre...} and
     * {@code C2 CompilerThre...}), from {@code /proc/<pid>/task/<tid>/stat}; 0 where there is no /proc.
     */
    double jitCpuSeconds() {
        Path tasks = Path.of("/proc", Long.toString(pid()), "task");
        double ticks = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path task : threads.toList()) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String comm = stat.substring(open + 1, close);
                if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                    // fields after the name: state is field 3, utime field 14, stime field 15
                    String[] f = stat.substring(close + 2).split(" ");
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                }
            }
        } catch (IOException noProc) {
            return 0;
        }
        return ticks / CLOCK_TICKS_PER_SECOND;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM, then a forced kill after 20 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}

package io.coffer.gateway.release;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The gateway as an operator runs it: {@code ./coffer serve} from the repository root (the launcher runs the jar and
 * lib/ that {@code mvn package} made, with its own JVM options; a failsafe test, so after the package phase) with a
 * bounded heap and the options below in {@code COFFER_JAVA_OPTS}, credentials from
 * {@code COFFER_ACCESS_KEY}/{@code COFFER_SECRET_KEY}, a data directory (directory backend, SQLite).
 *
 * <p>Heap use is sampled over JMX (the child starts the JMX agent on a loopback port): the gateway's Prometheus
 * registry binds no JVM meters, so {@code jvm_memory_used_bytes} is not on its /metrics page. Three figures come
 * back: the highest sampled heap use, the highest heap use right after a collection (the live set) and the sum of the
 * heap pools' peaks (an upper bound: the pools peak at different moments).
 *
 * <p>System property {@code coffer.load.gatewayJvmArgs}: more JVM options for the child, separated by spaces (for
 * example {@code -XX:StartFlightRecording=filename=/tmp/gw.jfr,settings=profile} to profile the gateway).
 */
final class GatewayProcess implements AutoCloseable {
    private static final Pattern ENDPOINT = Pattern.compile("endpoint:\\s+http://[^:]+:(\\d+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path log;
    private final int port;
    private final int adminPort;
    private final JMXConnector jmx;
    private final MemoryMXBean memory;
    private final List<MemoryPoolMXBean> heapPools = new ArrayList<>();
    private final ScheduledExecutorService sampler;
    private final AtomicLong maxHeapUsed = new AtomicLong();
    private final AtomicLong maxLiveAfterGc = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicReference<Throwable> samplerFailure = new AtomicReference<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private GatewayProcess(Process process, Path log, int port, int adminPort, JMXConnector jmx)
            throws IOException, JMException {
        this.process = process;
        this.log = log;
        this.port = port;
        this.adminPort = adminPort;
        this.jmx = jmx;
        MBeanServerConnection conn = jmx.getMBeanServerConnection();
        this.memory = ManagementFactory.newPlatformMXBeanProxy(conn, ManagementFactory.MEMORY_MXBEAN_NAME,
                MemoryMXBean.class);
        for (ObjectName name : conn.queryNames(new ObjectName(ManagementFactory.MEMORY_POOL_MXBEAN_DOMAIN_TYPE + ",*"),
                null)) {
            MemoryPoolMXBean pool = ManagementFactory.newPlatformMXBeanProxy(conn, name.toString(),
                    MemoryPoolMXBean.class);
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool);
            }
        }
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gateway-heap-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts {@code coffer serve} on {@code dataDir} with {@code -Xmx<heap>} and waits until /health/ready answers.
     */
    static GatewayProcess start(Path dataDir, String heap, String accessKey, String secretKey) throws Exception {
        Files.createDirectories(dataDir);
        int adminPort = freePort();
        int jmxPort = freePort();
        Path logConfig = dataDir.resolveSibling("gateway-logback.xml");
        Files.writeString(logConfig, """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{24} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="io.coffer.gateway.access" level="WARN"/>
                  <logger name="io.netty" level="WARN"/>
                  <logger name="software.amazon" level="WARN"/>
                  <logger name="org.apache" level="WARN"/>
                  <root level="INFO"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
        Path log = dataDir.resolveSibling("gateway.log");
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError"));
        String extra = System.getProperty("coffer.load.gatewayJvmArgs", "").strip();
        if (!extra.isEmpty()) {
            jvm.addAll(List.of(extra.split("\\s+")));
        }
        jvm.addAll(List.of(
                "-Dlogback.configurationFile=" + logConfig,
                "-Dcom.sun.management.jmxremote.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false",
                "-Djava.rmi.server.hostname=127.0.0.1"));
        List<String> cmd = List.of(ShippedGateway.REPOSITORY.resolve("coffer").toString(), "serve",
                "--data", dataDir.toString(), "--bind", "127.0.0.1", "--port", "0",
                "--admin-port", Integer.toString(adminPort));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("COFFER_"));
        env.put("COFFER_JAVA_OPTS", String.join(" ", jvm)); // the launcher splits it at spaces
        env.put("COFFER_ACCESS_KEY", accessKey);
        env.put("COFFER_SECRET_KEY", secretKey);
        Process p = pb.start();
        CountDownLatch announced = new CountDownLatch(1);
        AtomicLong s3Port = new AtomicLong(-1);
        AtomicBoolean rebuilt = new AtomicBoolean();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8)); var w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    w.write(line);
                    w.newLine();
                    w.flush();
                    rebuilt.compareAndSet(false, line.contains(ShippedGateway.REBUILDING));
                    Matcher m = ENDPOINT.matcher(line);
                    if (m.find()) {
                        s3Port.set(Long.parseLong(m.group(1)));
                        announced.countDown();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                announced.countDown();
            }
        }, "gateway-log-pump");
        pump.setDaemon(true);
        pump.start();
        if (!announced.await(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || s3Port.get() < 0) {
            p.destroyForcibly();
            throw new IllegalStateException("gateway did not start; its output:\n" + readQuietly(log));
        }
        if (rebuilt.get()) {
            p.destroyForcibly();
            throw new IllegalStateException("the launcher rebuilt the gateway instead of running the jar the build"
                    + " made (run after mvn package; a source newer than the jar?)");
        }
        HttpClient probe = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                HttpResponse<String> r = probe.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + adminPort + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    break;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline || !p.isAlive()) {
                p.destroyForcibly();
                throw new IllegalStateException("gateway never became ready; its output:\n" + readQuietly(log));
            }
            Thread.sleep(100);
        }
        JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"));
        return new GatewayProcess(p, log, (int) s3Port.get(), adminPort, jmx);
    }

    /** Samples heap use every {@code periodMs} until {@link #close}. */
    void startSampling(long periodMs) {
        sampler.scheduleAtFixedRate(this::sample, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            maxHeapUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
            long live = 0;
            for (MemoryPoolMXBean pool : heapPools) {
                MemoryUsage afterGc = pool.getCollectionUsage();
                live += afterGc == null ? 0 : afterGc.getUsed();
            }
            maxLiveAfterGc.accumulateAndGet(live, Math::max);
            samples.incrementAndGet();
        } catch (RuntimeException e) {
            samplerFailure.compareAndSet(null, e);
        }
    }

    /** Stops sampling and takes one last sample. */
    void stopSampling() throws InterruptedException {
        sampler.shutdown();
        sampler.awaitTermination(10, TimeUnit.SECONDS);
        sample();
    }

    long maxHeapUsed() {
        return maxHeapUsed.get();
    }

    long maxLiveAfterGc() {
        return maxLiveAfterGc.get();
    }

    long samples() {
        return samples.get();
    }

    Throwable samplerFailure() {
        return samplerFailure.get();
    }

    /** The sum of the heap pools' peak use since start (pools peak at different times: an upper bound). */
    long heapPoolPeaks() {
        long sum = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            sum += pool.getPeakUsage().getUsed();
        }
        return sum;
    }

    long maxHeap() {
        return memory.getHeapMemoryUsage().getMax();
    }

    int port() {
        return port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** The admin endpoint's /metrics page (Prometheus text format). */
    String metrics() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Everything the child printed so far. */
    String output() {
        return readQuietly(log);
    }

    /** SIGTERM (graceful shutdown), then a forced kill after 30 s. */
    @Override
    public void close() throws Exception {
        sampler.shutdownNow();
        try {
            jmx.close();
        } catch (IOException e) {
            // the child may be gone already
        }
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String readQuietly(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}

package io.coffer.benchmarks.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * End-to-end S3 benchmark, all in one run, one client configuration (AWS SDK v2 sync client over the Apache HTTP
 * client, SDK default checksums and signing, no retries) and one backend (s3proxy, filesystem provider, in a
 * temporary directory, in its own JVM):
 * <ol>
 * <li><b>direct</b>: client → backend s3proxy;</li>
 * <li><b>relay</b>: client → a bare TCP relay ({@link TcpRelay}, own JVM) → backend: bytes forwarded unchanged, no
 *   HTTP, no crypto: what one extra hop costs on this machine, since every gateway at least receives each byte on
 *   one socket and sends it on another;</li>
 * <li><b>coffer</b>: client → {@code coffer serve} (own JVM; backend s3 = the backend s3proxy, SQLite metadata) →
 *   backend;</li>
 * <li><b>s3proxy-enc</b>: client → a second s3proxy (own JVM) with {@code s3proxy.encrypted-blobstore=true}, provider
 *   {@code aws-s3} pointing at the backend → backend.</li>
 * </ol>
 * Every server JVM gets the same -Xmx. Measured, in rounds that rotate the order of the targets: single-stream
 * PUT/GET of fresh random 64 MiB objects (MB/s per object; every GET checked against the PUT's MD5 outside the timed
 * part), and 4 KiB PUT then GET with N threads for a fixed time (ops/s, p50/p99), each PUT a fresh key and fresh
 * random bytes so dedup cannot flatter Coffer. An extra, separately labelled row PUTs one 64 MiB body again and again
 * (fresh keys) to show dedup. CPU time of the server processes each target involves is reported per MB / per op.
 *
 * <p>Options: {@code --rounds N} (3), {@code --warmup-rounds N} (1: one object and a third of the small phase per
 * target; each further warm-up round is a whole unrecorded round), then more whole warm-up rounds until, in the last
 * one, no server JVM spent more than {@code --jit-idle-percent P} (3) of its CPU in its JIT compiler threads, up to
 * {@code --max-warmup-rounds N} (8) in all (a gateway serves from the steady state; on two cores C2 keeps compiling
 * for minutes; {@code --warmup-rounds 0 --max-warmup-rounds 0} measures cold JVMs), {@code --objects N} (64 MiB
 * objects per round per target, 3),
 * {@code --size-mib N} (64), {@code --threads N} (8), {@code --small-seconds N} (8), {@code --dedup-repeats N} (3),
 * {@code --heap SIZE} (server -Xmx, 1g), {@code --work DIR} (default: a temporary directory, deleted),
 * {@code --out FILE} (markdown results, default {@code target/gateway-bench/results.md}),
 * {@code --jfr FILE} (record the Coffer gateway with JFR, profile settings),
 * {@code --coffer-jvm-args "ARGS"} (more JVM arguments for the gateway, split at spaces, e.g. a profiler agent),
 * {@code --targets LIST} (comma-separated subset of {@code direct,relay,coffer,s3proxy-enc} to measure, default all; for
 * quick A/B runs of one path: the others' cells stay empty and the ratios to them read NaN).
 */
public final class GatewayBenchmark {
    private static final String BACKEND_KEY = "bench-backend-access";
    private static final String BACKEND_SECRET = "bench-backend-secret-0123456789";
    private static final String FRONT_KEY = "bench-front-access";
    private static final String FRONT_SECRET = "bench-front-secret-0123456789";
    private static final int SMALL = 4096;

    private final int rounds;
    private final int objects;
    private final int size;
    private final int threads;
    private final int smallSeconds;
    private final int dedupRepeats;
    private final String heap;
    private final Path work;
    private final boolean deleteWork;
    private final Path out;
    private final String jfr;
    private final int warmupRounds;
    private final int maxWarmupRounds;
    private final double jitIdle;
    private final List<String> cofferJvmArgs;
    private final List<String> measured;

    /** One way of reaching the backend, and what was measured through it. */
    static final class Target {
        final String name;
        final S3Client client;
        final String bucket;
        final List<ServerProcess> servers;
        final List<Double> putMBps = new ArrayList<>();
        final List<Double> getMBps = new ArrayList<>();
        final List<Double> dedupPutMBps = new ArrayList<>();
        final List<Double> smallPutOps = new ArrayList<>();
        final List<Double> smallGetOps = new ArrayList<>();
        final List<Double> smallPutP50 = new ArrayList<>();
        final List<Double> smallPutP99 = new ArrayList<>();
        final List<Double> smallGetP50 = new ArrayList<>();
        final List<Double> smallGetP99 = new ArrayList<>();
        final Map<String, double[]> cpu = new LinkedHashMap<>();
        long keys;

        Target(String name, S3Client client, String bucket, List<ServerProcess> servers) {
            this.name = name;
            this.client = client;
            this.bucket = bucket;
            this.servers = servers;
        }

        String nextKey(String prefix) {
            return prefix + "/" + (keys++);
        }

        /** CPU seconds used so far by the server processes this target goes through. */
        double serverCpuSeconds() {
            double s = 0;
            for (ServerProcess p : servers) {
                s += p.cpuSeconds();
            }
            return s;
        }

        void addCpu(String metric, double seconds, double units) {
            double[] acc = cpu.computeIfAbsent(metric, k -> new double[2]);
            acc[0] += seconds;
            acc[1] += units;
        }
    }

    /** Per server JVM: CPU seconds of its JIT compiler threads and of the whole process. */
    private record JitShare(Map<String, double[]> byServer) {
        static JitShare of(List<ServerProcess> servers) {
            Map<String, double[]> m = new LinkedHashMap<>();
            for (ServerProcess p : servers) {
                m.put(p.name(), new double[] {p.jitCpuSeconds(), p.cpuSeconds()});
            }
            return new JitShare(m);
        }

        JitShare since(JitShare before) {
            Map<String, double[]> m = new LinkedHashMap<>();
            byServer.forEach((name, now) -> {
                double[] then = before.byServer.get(name);
                m.put(name, new double[] {now[0] - then[0], now[1] - then[1]});
            });
            return new JitShare(m);
        }

        /** The largest share of a server's CPU that went to its JIT compilers. */
        double max() {
            return byServer.values().stream().mapToDouble(v -> v[1] > 0 ? v[0] / v[1] : 0).max().orElse(0);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            byServer.forEach((name, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                    "%s %.1f %%", name, v[1] > 0 ? 100 * v[0] / v[1] : 0)));
            return sb.toString();
        }
    }

    private GatewayBenchmark(Map<String, String> o) throws IOException {
        rounds = Integer.parseInt(o.getOrDefault("rounds", "3"));
        warmupRounds = Integer.parseInt(o.getOrDefault("warmup-rounds", "1"));
        maxWarmupRounds = Math.max(warmupRounds, Integer.parseInt(o.getOrDefault("max-warmup-rounds", "8")));
        jitIdle = Double.parseDouble(o.getOrDefault("jit-idle-percent", "3")) / 100;
        objects = Integer.parseInt(o.getOrDefault("objects", "3"));
        size = Integer.parseInt(o.getOrDefault("size-mib", "64")) << 20;
        threads = Integer.parseInt(o.getOrDefault("threads", "8"));
        smallSeconds = Integer.parseInt(o.getOrDefault("small-seconds", "8"));
        dedupRepeats = Integer.parseInt(o.getOrDefault("dedup-repeats", "3"));
        heap = o.getOrDefault("heap", "1g");
        deleteWork = !o.containsKey("work");
        work = deleteWork ? Files.createTempDirectory("coffer-gateway-bench") : Path.of(o.get("work"));
        out = Path.of(o.getOrDefault("out", "target/gateway-bench/results.md"));
        jfr = o.get("jfr");
        String extra = o.getOrDefault("coffer-jvm-args", "").trim();
        cofferJvmArgs = extra.isEmpty() ? List.of() : List.of(extra.split(" +"));
        measured = List.of(o.getOrDefault("targets", "direct,relay,coffer,s3proxy-enc").split(","));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got " + Arrays.toString(args));
            }
            o.put(args[i].substring(2), args[++i]);
        }
        new GatewayBenchmark(o).run(String.join(" ", args));
    }

    private void run(String argLine) throws Exception {
        long started = System.nanoTime();
        List<ServerProcess> all = new ArrayList<>();
        Thread cleanup = new Thread(() -> closeAll(all), "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Properties backendProps = new Properties();
            backendProps.setProperty("jclouds.provider", "filesystem");
            backendProps.setProperty("jclouds.filesystem.basedir", work.resolve("backend-data").toString());
            backendProps.setProperty("jclouds.identity", BACKEND_KEY);
            backendProps.setProperty("jclouds.credential", BACKEND_SECRET);
            backendProps.setProperty("s3proxy.authorization", "aws-v2-or-v4");
            backendProps.setProperty("s3proxy.identity", BACKEND_KEY);
            backendProps.setProperty("s3proxy.credential", BACKEND_SECRET);
            backendProps.setProperty("s3proxy.ignore-unknown-headers", "true");
            Files.createDirectories(work.resolve("backend-data"));
            ServerProcess backend = ServerProcess.s3proxy("backend-s3proxy", work, heap, backendProps);
            all.add(backend);
            URI backendUri = URI.create("http://127.0.0.1:" + backend.port());
            S3Client backendClient = client(backendUri, BACKEND_KEY, BACKEND_SECRET);
            backendClient.createBucket(b -> b.bucket("bench-direct"));
            backendClient.createBucket(b -> b.bucket("coffer-backend"));
            backendClient.createBucket(b -> b.bucket("bench-relay"));
            ServerProcess relay = ServerProcess.relay("tcp-relay", work, heap, backend.port());
            all.add(relay);

            Map<String, String> env = new LinkedHashMap<>();
            env.put("COFFER_DATA", work.resolve("coffer-data").toString());
            env.put("COFFER_BACKEND", "s3");
            env.put("COFFER_S3_ENDPOINT", backendUri.toString());
            env.put("COFFER_S3_BUCKET", "coffer-backend");
            env.put("COFFER_S3_REGION", "us-east-1");
            env.put("COFFER_S3_PATH_STYLE", "true");
            env.put("COFFER_BACKEND_ACCESS_KEY", BACKEND_KEY);
            env.put("COFFER_BACKEND_SECRET_KEY", BACKEND_SECRET);
            env.put("COFFER_ACCESS_KEY", FRONT_KEY);
            env.put("COFFER_SECRET_KEY", FRONT_SECRET);
            List<String> jvm = new ArrayList<>(cofferJvmArgs);
            if (jfr != null) {
                jvm.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
            }
            ServerProcess coffer = ServerProcess.coffer("coffer-gateway", work, heap, env, jvm);
            all.add(coffer);

            Properties encProps = new Properties();
            encProps.setProperty("jclouds.provider", "aws-s3");
            encProps.setProperty("jclouds.endpoint", backendUri.toString());
            encProps.setProperty("jclouds.region", "us-east-1");
            encProps.setProperty("jclouds.identity", BACKEND_KEY);
            encProps.setProperty("jclouds.credential", BACKEND_SECRET);
            encProps.setProperty("s3proxy.authorization", "aws-v2-or-v4");
            encProps.setProperty("s3proxy.identity", FRONT_KEY);
            encProps.setProperty("s3proxy.credential", FRONT_SECRET);
            encProps.setProperty("s3proxy.ignore-unknown-headers", "true");
            encProps.setProperty("s3proxy.encrypted-blobstore", "true");
            encProps.setProperty("s3proxy.encrypted-blobstore-password", "bench-password-" + System.nanoTime());
            encProps.setProperty("s3proxy.encrypted-blobstore-salt", "bench-salt-" + System.nanoTime());
            ServerProcess enc = ServerProcess.s3proxy("encrypting-s3proxy", work, heap, encProps);
            all.add(enc);

            Target cofferTarget = new Target("coffer", client(URI.create("http://127.0.0.1:" + coffer.port()),
                    FRONT_KEY, FRONT_SECRET), "bench-coffer", List.of(coffer, backend));
            Target encTarget = new Target("s3proxy-enc", client(URI.create("http://127.0.0.1:" + enc.port()),
                    FRONT_KEY, FRONT_SECRET), "bench-enc", List.of(enc, backend));
            List<Target> targets = List.of(
                    new Target("direct", backendClient, "bench-direct", List.of(backend)),
                    new Target("relay", client(URI.create("http://127.0.0.1:" + relay.port()), BACKEND_KEY,
                            BACKEND_SECRET), "bench-relay", List.of(relay, backend)),
                    cofferTarget, encTarget);
            cofferTarget.client.createBucket(b -> b.bucket("bench-coffer"));
            encTarget.client.createBucket(b -> b.bucket("bench-enc"));
            String setup = checkEncryptionAtRest(backendClient, List.of(cofferTarget, encTarget));

            List<Target> active = targets.stream().filter(t -> measured.contains(t.name)).toList();
            List<ServerProcess> servers = active.stream().flatMap(t -> t.servers.stream()).distinct().toList();
            JitShare lastWarmup = null;
            int warmups = 0;
            while (warmups < warmupRounds
                    || (warmups < maxWarmupRounds && (lastWarmup == null || lastWarmup.max() > jitIdle))) {
                JitShare before = JitShare.of(servers);
                for (Target t : active) {
                    log("warm-up " + (warmups + 1) + "/" + warmupRounds + "+: " + t.name);
                    large(t, warmups == 0 ? 1 : objects, false, true);
                    small(t, warmups == 0 ? Math.max(2, smallSeconds / 3) : smallSeconds, false);
                }
                lastWarmup = JitShare.of(servers).since(before);
                warmups++;
                log("JIT share of server CPU in that warm-up round: " + lastWarmup);
            }
            JitShare beforeRounds = JitShare.of(servers);
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < active.size(); i++) {
                    Target t = active.get((i + r) % active.size());
                    log("round " + (r + 1) + "/" + rounds + ": " + t.name);
                    large(t, objects, true, true);
                    small(t, smallSeconds, true);
                }
            }
            for (Target t : dedupRepeats > 0 ? active : List.<Target>of()) {
                log("dedup row " + t.name);
                large(t, dedupRepeats, true, false);
            }
            for (ServerProcess p : all) {
                if (!p.isAlive()) {
                    throw new IllegalStateException(p.name() + " died; its output:\n" + p.output());
                }
            }
            String jit = String.format(Locale.ROOT, "warm-up: %d rounds (at least %d, then until every server JVM's "
                    + "JIT compiler threads used at most %.0f %% of its CPU in a round, at most %d); JIT share of "
                    + "server CPU in the last warm-up round: %s; in the measured rounds: %s%n", warmups, warmupRounds,
                    jitIdle * 100, maxWarmupRounds, lastWarmup == null ? "-" : lastWarmup,
                    JitShare.of(servers).since(beforeRounds));
            String report = report(targets, argLine, setup + jit, (System.nanoTime() - started) / 1e9);
            System.out.println(report);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, report, StandardCharsets.UTF_8);
            log("results written to " + out.toAbsolutePath());
            for (Target t : targets) {
                t.client.close();
            }
        } finally {
            closeAll(all);
            Runtime.getRuntime().removeShutdownHook(cleanup);
            if (deleteWork) {
                deleteTree(work);
            }
        }
    }

    /** Shows that the encrypting paths store ciphertext: a probe object's stored bytes are not its plaintext. */
    private String checkEncryptionAtRest(S3Client backend, List<Target> targets) throws IOException {
        byte[] probe = "coffer-bench-plaintext-probe ".repeat(200).getBytes(StandardCharsets.US_ASCII);
        StringBuilder sb = new StringBuilder();
        for (Target t : targets) {
            t.client.putObject(r -> r.bucket(t.bucket).key("probe"), RequestBody.fromBytes(probe));
            byte[] back = t.client.getObjectAsBytes(r -> r.bucket(t.bucket).key("probe")).asByteArray();
            if (!Arrays.equals(back, probe)) {
                throw new IllegalStateException(t.name + " returned other bytes than were stored");
            }
        }
        String needle = "coffer-bench-plaintext-probe";
        for (String bucket : List.of("coffer-backend", "bench-enc")) {
            int objectsSeen = 0;
            for (S3Object o : backend.listObjectsV2Paginator(r -> r.bucket(bucket)).contents()) {
                objectsSeen++;
                String body = new String(backend.getObjectAsBytes(r -> r.bucket(bucket).key(o.key())).asByteArray(),
                        StandardCharsets.ISO_8859_1);
                if (body.contains(needle)) {
                    throw new IllegalStateException("backend object " + bucket + "/" + o.key() + " holds plaintext");
                }
            }
            if (objectsSeen == 0) {
                throw new IllegalStateException("nothing stored in backend bucket " + bucket);
            }
            sb.append(String.format(Locale.ROOT, "backend bucket %s: %d object(s), none holds the probe's plaintext%n",
                    bucket, objectsSeen));
        }
        return sb.toString();
    }

    /** PUTs {@code n} objects, then GETs them; {@code fresh}: new random bytes each, else one body repeated. */
    private void large(Target t, int n, boolean record, boolean fresh) throws IOException {
        byte[] data = new byte[size];
        byte[] buf = new byte[size];
        List<String> keys = new ArrayList<>();
        List<byte[]> md5s = new ArrayList<>();
        if (!fresh) {
            fill(data, 0x5eed_dedfL);
            String key = t.nextKey("dedup-prime");
            t.client.putObject(r -> r.bucket(t.bucket).key(key).contentLength((long) size),
                    RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data), size,
                            "application/octet-stream"));
        }
        for (int i = 0; i < n; i++) {
            if (fresh) {
                fill(data, ThreadLocalRandom.current().nextLong());
            }
            String key = t.nextKey(fresh ? "large" : "dedup");
            double cpu0 = t.serverCpuSeconds();
            long t0 = System.nanoTime();
            t.client.putObject(r -> r.bucket(t.bucket).key(key).contentLength((long) size),
                    RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data), size,
                            "application/octet-stream"));
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = t.serverCpuSeconds() - cpu0;
            if (record) {
                (fresh ? t.putMBps : t.dedupPutMBps).add(size / 1e6 / secs);
                t.addCpu(fresh ? "put-large" : "put-dedup", cpu, size / 1e6);
            }
            keys.add(key);
            md5s.add(md5(data, size));
        }
        if (!fresh) {
            return;
        }
        for (int i = 0; i < n; i++) {
            String key = keys.get(i);
            double cpu0 = t.serverCpuSeconds();
            long t0 = System.nanoTime();
            int got;
            try (ResponseInputStream<GetObjectResponse> in = t.client.getObject(r -> r.bucket(t.bucket).key(key))) {
                got = in.readNBytes(buf, 0, size);
                if (in.read() >= 0) {
                    throw new IllegalStateException(t.name + ": GET " + key + " returned more than " + size);
                }
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = t.serverCpuSeconds() - cpu0;
            if (got != size || !Arrays.equals(md5(buf, got), md5s.get(i))) {
                throw new IllegalStateException(t.name + ": GET " + key + " returned other bytes than were PUT");
            }
            if (record) {
                t.getMBps.add(size / 1e6 / secs);
                t.addCpu("get-large", cpu, size / 1e6);
            }
        }
    }

    /** 4 KiB PUTs of fresh keys and bytes for {@code seconds}, then GETs of those keys for as long. */
    private void small(Target t, int seconds, boolean record) throws Exception {
        Map<String, byte[]> stored = new ConcurrentHashMap<>();
        List<String> keys = java.util.Collections.synchronizedList(new ArrayList<>());
        String prefix = t.nextKey("small");
        AtomicLong counter = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (boolean put : new boolean[] {true, false}) {
                double cpu0 = t.serverCpuSeconds();
                long start = System.nanoTime();
                long deadline = start + Duration.ofSeconds(seconds).toNanos();
                List<String> snapshot = put ? null : List.copyOf(keys);
                List<Future<long[]>> futures = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    futures.add(pool.submit(() -> {
                        long[] lat = new long[1024];
                        int n = 0;
                        SplittableRandom rnd = new SplittableRandom(ThreadLocalRandom.current().nextLong());
                        while (System.nanoTime() < deadline) {
                            long t0;
                            if (put) {
                                byte[] body = new byte[SMALL];
                                fill(body, rnd.nextLong());
                                String key = prefix + "/" + counter.incrementAndGet();
                                t0 = System.nanoTime();
                                t.client.putObject(r -> r.bucket(t.bucket).key(key), RequestBody.fromBytes(body));
                                stored.put(key, body);
                                keys.add(key);
                            } else {
                                String key = snapshot.get(rnd.nextInt(snapshot.size()));
                                t0 = System.nanoTime();
                                byte[] got = t.client.getObjectAsBytes(r -> r.bucket(t.bucket).key(key))
                                        .asByteArrayUnsafe();
                                if (!Arrays.equals(got, stored.get(key))) {
                                    throw new IllegalStateException(t.name + ": GET " + key + " differs");
                                }
                            }
                            if (n == lat.length) {
                                lat = Arrays.copyOf(lat, n * 2);
                            }
                            lat[n++] = System.nanoTime() - t0;
                        }
                        return Arrays.copyOf(lat, n);
                    }));
                }
                List<Long> all = new ArrayList<>();
                for (Future<long[]> f : futures) {
                    for (long v : f.get()) {
                        all.add(v);
                    }
                }
                double secs = (System.nanoTime() - start) / 1e9;
                double cpu = t.serverCpuSeconds() - cpu0;
                if (record && !all.isEmpty()) {
                    long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
                    (put ? t.smallPutOps : t.smallGetOps).add(sorted.length / secs);
                    (put ? t.smallPutP50 : t.smallGetP50).add(pct(sorted, 50) / 1e6);
                    (put ? t.smallPutP99 : t.smallGetP99).add(pct(sorted, 99) / 1e6);
                    t.addCpu(put ? "put-small" : "get-small", cpu, sorted.length);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private String report(List<Target> ts, String argLine, String setup, double seconds) {
        Target d = ts.get(0);
        Target l = ts.get(1);
        Target c = ts.get(2);
        Target e = ts.get(3);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "GatewayBenchmark %s%n", argLine.isEmpty() ? "(defaults)" : argLine));
        sb.append(String.format(Locale.ROOT, "machine: %d CPUs (%s), %s %s, server JVMs -Xmx%s; run took %.0f s%n",
                Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), heap, seconds));
        sb.append(String.format(Locale.ROOT, "rounds=%d, %d x %d MiB objects per round and target (single stream), "
                        + "4 KiB: %d threads x %d s per phase; medians over all samples/rounds, [min-max]%n",
                rounds, objects, size >> 20, threads, smallSeconds));
        sb.append(setup);
        sb.append('\n');
        sb.append("| metric | direct | relay | Coffer | s3proxy-enc | Coffer/direct | Coffer/relay "
                + "| Coffer/s3proxy-enc |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (String m : List.of("put", "get", "sput", "sget", "sputp50", "sputp99", "sgetp50", "sgetp99", "dedup")) {
            // ops/s rows whole numbers, MB/s and ms one decimal
            row(sb, label(m), pick(d, m), pick(l, m), pick(c, m), pick(e, m), m.equals("sput") || m.equals("sget")
                    ? 0 : 1);
        }
        sb.append('\n');
        sb.append("Server CPU per unit of work (CPU time of every server process the path goes through: direct = "
                + "backend; relay = relay + backend; Coffer = gateway + backend; s3proxy-enc = proxy + backend):\n\n");
        sb.append("| work | direct | relay | Coffer | s3proxy-enc |\n|---|---|---|---|---|\n");
        for (String[] m : new String[][] {{"put-large", "PUT large, CPU ms/MB"}, {"get-large", "GET large, CPU ms/MB"},
            {"put-small", "PUT 4 KiB, CPU ms/op"}, {"get-small", "GET 4 KiB, CPU ms/op"},
            {"put-dedup", "dedup PUT, CPU ms/MB"}}) {
            sb.append("| ").append(m[1]);
            for (Target t : ts) {
                double[] acc = t.cpu.get(m[0]);
                sb.append(" | ").append(acc == null || acc[1] == 0 ? "-"
                        : String.format(Locale.ROOT, "%.2f", acc[0] * 1000 / acc[1]));
            }
            sb.append(" |\n");
        }
        sb.append('\n');
        String[][] measures = {{"large PUT", "put"}, {"large GET", "get"}, {"4 KiB PUT", "sput"}, {"4 KiB GET", "sget"}};
        double[][] targetsAndAims = {{0.60, 0.85}, {0.60, 0.85}, {0.50, 0.70}, {0.50, 0.70}};
        for (int i = 0; i < measures.length; i++) {
            String m = measures[i][1];
            double ratio = median(pick(c, m)) / median(pick(d, m));
            double min = targetsAndAims[i][0];
            double aim = targetsAndAims[i][1];
            List<Double> paired = perRoundRatios(pick(c, m), pick(d, m), m.startsWith("s") ? 1 : objects);
            sb.append(String.format(Locale.ROOT, "- %s Coffer/direct = %.0f%% (target >= %.0f%%, aim %.0f%%): %s; "
                            + "round by round %.0f%% [%.0f-%.0f%%]; the bare relay reached %.0f%% of direct, Coffer "
                            + "%.0f%% of the relay%n", measures[i][0],
                    ratio * 100, min * 100, aim * 100, ratio >= aim ? "MET (aim reached)" : ratio >= min ? "MET"
                            : "MISSED", median(paired) * 100, paired.stream().min(Double::compare).orElse(Double.NaN)
                            * 100, paired.stream().max(Double::compare).orElse(Double.NaN) * 100,
                    median(pick(l, m)) / median(pick(d, m)) * 100, median(pick(c, m)) / median(pick(l, m)) * 100));
        }
        sb.append("(Round by round: Coffer's median over direct's within each measured round, both measured minutes "
                + "apart; the median and range of those ratios show how much of a run's ratio is the machine drifting "
                + "between rounds.)\n");
        for (String[] m : measures) {
            double ratio = median(pick(c, m[1])) / median(pick(e, m[1]));
            sb.append(String.format(Locale.ROOT, "- Coffer vs s3proxy-enc, %s: %.2fx -> %s%n", m[0], ratio,
                    ratio > 1 ? "Coffer faster" : "s3proxy-enc faster"));
        }
        return sb.toString();
    }

    private String label(String m) {
        return switch (m) {
            case "put" -> "PUT " + (size >> 20) + " MiB, MB/s";
            case "get" -> "GET " + (size >> 20) + " MiB, MB/s";
            case "sput" -> "PUT 4 KiB, ops/s (" + threads + " threads)";
            case "sget" -> "GET 4 KiB, ops/s (" + threads + " threads)";
            case "sputp50" -> "PUT 4 KiB p50 ms";
            case "sputp99" -> "PUT 4 KiB p99 ms";
            case "sgetp50" -> "GET 4 KiB p50 ms";
            case "sgetp99" -> "GET 4 KiB p99 ms";
            default -> "dedup row (NOT fresh data): PUT of one identical " + (size >> 20) + " MiB body, repeated, MB/s";
        };
    }

    /**
     * Per measured round, median of {@code c}'s samples over median of {@code d}'s; each round adds {@code perRound}
     * samples to both lists, in round order.
     */
    private List<Double> perRoundRatios(List<Double> c, List<Double> d, int perRound) {
        List<Double> ratios = new ArrayList<>();
        if (perRound <= 0) {
            return ratios; // that measurement was not run (e.g. --objects 0)
        }
        for (int r = 0; (r + 1) * perRound <= Math.min(c.size(), d.size()); r++) {
            ratios.add(median(c.subList(r * perRound, (r + 1) * perRound))
                    / median(d.subList(r * perRound, (r + 1) * perRound)));
        }
        return ratios;
    }

    private static List<Double> pick(Target t, String m) {
        return switch (m) {
            case "put" -> t.putMBps;
            case "get" -> t.getMBps;
            case "sput" -> t.smallPutOps;
            case "sget" -> t.smallGetOps;
            case "sputp50" -> t.smallPutP50;
            case "sputp99" -> t.smallPutP99;
            case "sgetp50" -> t.smallGetP50;
            case "sgetp99" -> t.smallGetP99;
            case "dedup" -> t.dedupPutMBps;
            default -> throw new IllegalArgumentException(m);
        };
    }

    private static void row(StringBuilder sb, String label, List<Double> d, List<Double> l, List<Double> c,
                            List<Double> e, int decimals) {
        sb.append("| ").append(label);
        for (List<Double> v : List.of(d, l, c, e)) {
            sb.append(" | ").append(cell(v, decimals));
        }
        for (List<Double> base : List.of(d, l, e)) {
            sb.append(" | ").append(String.format(Locale.ROOT, "%.2f", median(c) / median(base)));
        }
        sb.append(" |\n");
    }

    private static String cell(List<Double> v, int decimals) {
        if (v.isEmpty()) {
            return "-";
        }
        String f = "%." + decimals + "f";
        return String.format(Locale.ROOT, f + " [" + f + "-" + f + "]", median(v), v.stream().min(Double::compare)
                .orElseThrow(), v.stream().max(Double::compare).orElseThrow());
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static S3Client client(URI endpoint, String key, String secret) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(64)
                        .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofMinutes(5)))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    /** Fills {@code b} with random bytes from {@code seed} (SplittableRandom, 8 bytes at a time). */
    static void fill(byte[] b, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        while (bb.remaining() >= 8) {
            bb.putLong(rnd.nextLong());
        }
        while (bb.hasRemaining()) {
            bb.put((byte) rnd.nextInt());
        }
    }

    private static byte[] md5(byte[] b, int n) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(b, 0, n);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse(System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }

    private static void log(String message) {
        System.err.printf(Locale.ROOT, "[%tT] %s%n", System.currentTimeMillis(), message);
    }

    private static void closeAll(List<ServerProcess> servers) {
        for (int i = servers.size() - 1; i >= 0; i--) {
            try {
                servers.get(i).close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

}

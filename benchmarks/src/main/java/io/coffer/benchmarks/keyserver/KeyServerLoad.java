package io.coffer.benchmarks.keyserver;

import com.sun.management.OperatingSystemMXBean;
import io.coffer.keyserver.client.Exchange;
import io.coffer.keyserver.client.HttpsExchange;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.LocalEvaluator;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.OprfServer;
import io.coffer.keyserver.oprf.RsaOprfPrivateKey;
import io.coffer.keyserver.oprf.RsaOprfPublicKey;
import io.coffer.keyserver.oprf.Suite;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import io.coffer.keyserver.wire.DatagramFrame;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.ProtocolLimits;
import io.coffer.keyserver.wire.SessionGrant;
import io.coffer.keyserver.wire.Status;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Load test of the key server over loopback, in one run: (a) single-thread rates of the raw primitives and
 * of the server's own evaluation, (b) closed-loop saturation (evaluations/s, p50/p99) for single and
 * batched queries on OPRFv1 and OPRFv2, (c) the DupLESS paper's Figure 4 open-loop sweep on OPRFv2,
 * (d) a summary against the targets, and (e) how close the fixed and exponential rate-limit delays land to
 * their configuration. The server runs in this JVM (rate limiting {@code none} except in part e, bound to
 * 127.0.0.1) and the load generator shares the machine's cores with it.
 *
 * <p>The load generator sends pre-made blinded elements over the client's own {@link Exchange}s (OPRFv1 on the JDK HTTP
 * client, KSInit then HMAC'd datagrams for OPRFv2; the Figure 4 sweep keeps many datagrams in flight on one session,
 * with the client's wire codec), so that its own CPU use stays small: it does not blind, verify or unblind during
 * measurements. Elements are uniformly random valid group elements
 * (RSA: x in [1, N); P-256: distinct random points), distributed exactly like real blinded elements. Before
 * measuring each key, a real {@link KeyServerClient} checks on both transports that the server's answers
 * verify and unblind to the {@link LocalEvaluator} output.
 */
@Command(name = "KeyServerLoad", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Key-server load test over loopback: primitives, closed-loop saturation, Figure 4 open-loop sweep, rate-limit delay accuracy.")
public final class KeyServerLoad implements Callable<Integer> {
    @Option(names = "--keys", split = ",", defaultValue = "rsa2048,rsa1024,p256", description = "Keys to test: rsa2048, rsa1024, rsa3072, p256. Default: ${DEFAULT-VALUE}.")
    List<String> keys;

    @Option(names = "--parts", split = ",", defaultValue = "a,b,c",
            description = "Parts to run: a (primitives), b (closed loop), c (Figure 4), e (rate-limit delay accuracy, first of --keys). Default: ${DEFAULT-VALUE}.")
    List<String> parts;

    @Option(names = "--primitive-seconds", defaultValue = "2", description = "Measured seconds per primitive (after 1/2 as much warm-up). Default: ${DEFAULT-VALUE}.")
    double primitiveSeconds;

    @Option(names = "--closed-seconds", defaultValue = "4", description = "Measured seconds per closed-loop configuration. Default: ${DEFAULT-VALUE}.")
    double closedSeconds;

    @Option(names = "--closed-warmup", defaultValue = "1", description = "Warm-up seconds per closed-loop configuration. Default: ${DEFAULT-VALUE}.")
    double closedWarmup;

    @Option(names = "--threads", defaultValue = "8", description = "Client threads in the closed loop. Default: ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "--batch", defaultValue = "32", description = "Batch size of the batched queries (OPRFv2: capped to what fits a datagram). Default: ${DEFAULT-VALUE}.")
    int batch;

    @Option(names = "--fig4-keys", split = ",", description = "Keys for the Figure 4 sweep (default: all of --keys).")
    List<String> fig4Keys;

    @Option(names = "--fig4-steps", defaultValue = "64", description = "Steps i = 1..N, offering 100*i queries/s. Default: ${DEFAULT-VALUE}.")
    int fig4Steps;

    @Option(names = "--fig4-rate-step", defaultValue = "100", description = "Offered rate increment per step (queries/s). Default: ${DEFAULT-VALUE}.")
    int fig4RateStep;

    @Option(names = "--fig4-rates", split = ",",
            description = "Offered rates (queries/s) of the steps, instead of --fig4-steps x --fig4-rate-step, e.g. 800,800,800 to repeat one step.")
    List<Integer> fig4Rates;

    @Option(names = "--fig4-step-seconds", defaultValue = "1.5", description = "Sending time per step; queries per step = min(--fig4-queries, rate * this). Default: ${DEFAULT-VALUE}.")
    double fig4StepSeconds;

    @Option(names = "--fig4-queries", defaultValue = "10000", description = "Most queries per step (the paper: 10000). Default: ${DEFAULT-VALUE}.")
    int fig4Queries;

    @Option(names = "--fig4-stop-after", defaultValue = "0",
            description = "Stop a sweep after this many consecutive steps answering under 50% (0: never). Default: ${DEFAULT-VALUE}.")
    int fig4StopAfter;

    @Option(names = "--fig4-warmup-seconds", defaultValue = "40",
            description = "Before each sweep, rounds of 1 s of queries (at 60% of the raw limit, or 1000/s without part a), not measured, "
                    + "until one in which the JIT compiler and GC threads used under 0.03 cores (at least 3 rounds, at most this many). "
                    + "0: no warm-up. Default: ${DEFAULT-VALUE}.")
    int fig4WarmupSeconds;

    @Option(names = "--fig4-extend", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Unless the last three steps up to --fig4-steps all lost queries, go on until three in a row do "
                    + "(at most 3 x --fig4-steps), to find saturation. Default: ${DEFAULT-VALUE}.")
    boolean fig4Extend;

    @Option(names = "--timeout-ms", defaultValue = "500", description = "Answer timeout tR (the client's default). Default: ${DEFAULT-VALUE}.")
    int timeoutMs;

    @Option(names = "--workers", description = "Server evaluation threads (default: the server's default, available processors).")
    Integer workers;

    @Option(names = "--delay-clients", defaultValue = "4",
            description = "Part e: clients (each its own identity) querying a delaying server at the same time. Default: ${DEFAULT-VALUE}.")
    int delayClients;

    @Option(names = "--fixed-delays-ms", split = ",", defaultValue = "10,50,250",
            description = "Part e: fixed delays tD to measure, in ms. Default: ${DEFAULT-VALUE}.")
    List<Integer> fixedDelaysMs;

    @Option(names = "--fixed-seconds", defaultValue = "3",
            description = "Part e: about this long per fixed delay and transport (queries per client = this / tD, at least 5). Default: ${DEFAULT-VALUE}.")
    double fixedSeconds;

    @Option(names = "--exp-delay-ms", split = ",", defaultValue = "10,320,500",
            description = "Part e: exponential delay initial,max,epoch in ms. Default: ${DEFAULT-VALUE}.")
    List<Integer> expDelayMs;

    @Option(names = "--exp-rounds", defaultValue = "3",
            description = "Part e: rounds per client, each from the initial delay up to two queries at the cap, then an idle epoch. Default: ${DEFAULT-VALUE}.")
    int expRounds;

    /** How long an OPRFv1 answer or a KSInit is awaited: TCP does not lose them, so only a hung server times out. */
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);

    private static final String CPU_COLUMNS = "JVM cores: CPU used by this JVM / wall time, split into server cores (the key server's threads),"
            + " load gen cores (the load generator's threads) and JIT+GC cores (compiler and garbage-collector threads); other cores: CPU used by"
            + " everything else on the machine (other tenants), from /proc/stat";

    private final PrintStream out = System.out;
    private final SecureRandom random = new SecureRandom();
    /** Single-thread evaluations/s of the server's OprfServer.blindEvaluate, by "key/batch". */
    private final Map<String, Double> rawRate = new LinkedHashMap<>();
    private final Map<String, Double> closedV2Single = new LinkedHashMap<>();
    private final Map<String, Fig4Result> fig4Results = new LinkedHashMap<>();
    private final Map<String, String> primitiveNote = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new KeyServerLoad()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long t0 = System.nanoTime();
        int cores = Runtime.getRuntime().availableProcessors();
        out.println("# KeyServerLoad");
        out.println("machine: " + cores + " cores (availableProcessors), CPU " + cpuModel() + ", " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + ", " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        out.println("load average at start: " + loadAverage());
        out.println("server and load generator share this JVM and these cores; traffic only to 127.0.0.1; rate limit none (part e: the limits it names)");
        out.println("options: keys=" + keys + " parts=" + parts + " threads=" + threads + " batch=" + batch + " timeout=" + timeoutMs + "ms"
                + " fig4: steps=" + fig4Steps + " x " + fig4RateStep + "/s, " + fig4StepSeconds + " s/step, <= " + fig4Queries + " queries/step");
        out.println();
        Path root = Files.createTempDirectory("ks-bench");
        List<Target> targets = new ArrayList<>();
        try {
            for (String k : keys) {
                targets.add(Target.create(root, k.trim().toLowerCase(Locale.ROOT), workers, parts.contains("e") && targets.isEmpty() ? delayClients : 0));
            }
            if (parts.contains("a")) {
                primitives(targets);
            }
            if (parts.contains("b")) {
                out.println("## (b) closed loop: " + threads + " client threads, each one query in flight; " + closedWarmup + " s warm-up, "
                        + closedSeconds + " s measured");
                out.println();
                out.println(CPU_COLUMNS);
                out.println();
                out.println("ratio per JVM core: evaluations/s / (JVM cores x the 1-core raw rate), i.e. the share of the CPU this JVM got"
                        + " that went into OPRF evaluations (the rest: transport, load generator, GC, JIT); per server core: the same over the"
                        + " server's threads only (the rest: the server's transport and hand-offs)");
                out.println();
                out.println("| key | transport | batch | queries/s | evaluations/s | p50 ms | p99 ms | lost | raw limit (2 cores) | ratio "
                        + "| JVM cores | server cores | load gen cores | JIT+GC cores | other cores | ratio per JVM core | per server core |");
                out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
                for (Target t : targets) {
                    t.sanityCheck();
                    for (String transport : List.of("v1", "v2")) {
                        int big = transport.equals("v1") ? batch : Math.min(batch, t.datagramCapacity());
                        for (int n : new int[] {1, big}) {
                            closedLoop(t, transport, n);
                        }
                    }
                }
                out.println();
            }
            if (parts.contains("c")) {
                List<String> f4 = fig4Keys == null ? keys : fig4Keys;
                for (Target t : targets) {
                    if (f4.contains(t.name)) {
                        t.sanityCheck();
                        fig4(t);
                    }
                }
            }
            if (parts.contains("e")) {
                delayAccuracy(targets.get(0));
            }
            if (parts.contains("a") || parts.contains("b") || parts.contains("c")) {
                summary(targets, cores);
            }
        } finally {
            for (Target t : targets) {
                t.close();
            }
            deleteTree(root);
        }
        out.println();
        out.printf(Locale.ROOT, "load average at end: %s; total run time %.0f s%n", loadAverage(), (System.nanoTime() - t0) / 1e9);
        return 0;
    }

    // ---------------------------------------------------------------- (a) primitives

    private void primitives(List<Target> targets) throws Exception {
        out.println("## (a) raw primitives, single thread, same harness (" + primitiveSeconds / 2 + " s warm-up, " + primitiveSeconds + " s measured)");
        out.println();
        out.println("| operation | ops/s (wall clock) | ops per CPU-second | CPU us/op |");
        out.println("|---|---:|---:|---:|");
        for (Target t : targets) {
            if (t.key instanceof RsaOprfPrivateKey) {
                RsaOprfPrivateKey rsa = (RsaOprfPrivateKey) t.key;
                RSAPrivateCrtKey crt = (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(rsa.exportSecretPkcs8()));
                BigInteger n = crt.getModulus();
                BigInteger[] xs = new BigInteger[1024];
                for (int i = 0; i < xs.length; i++) {
                    xs[i] = new BigInteger(n.bitLength() + 64, random).mod(n);
                }
                BigInteger p = crt.getPrimeP(), q = crt.getPrimeQ(), dP = crt.getPrimeExponentP(), dQ = crt.getPrimeExponentQ(), qInv = crt.getCrtCoefficient();
                int[] i = {0};
                row("RSA-" + t.bits + " private op, bare CRT (2 half-size modPow + Garner)", rate(() -> {
                    BigInteger x = xs[i[0]++ & 1023];
                    BigInteger m1 = x.mod(p).modPow(dP, p);
                    BigInteger m2 = x.mod(q).modPow(dQ, q);
                    return m2.add(qInv.multiply(m1.subtract(m2)).mod(p).multiply(q));
                }));
                row("RSA-" + t.bits + " RsaOprfPrivateKey.rawSign (base blinding + CRT + y^e check)", rate(() -> rsa.rawSign(xs[i[0]++ & 1023], random)));
            } else {
                X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
                ECPoint[] pts = new ElementSource(t).points(1024);
                BigInteger k = new BigInteger(255, random);
                int[] i = {0};
                row("P-256 variable-base scalar mult (BC, normalize + compress)", rate(() -> pts[i[0]++ & 1023].multiply(k).normalize().getEncoded(true)));
                row("P-256 fixed-base scalar mult k*G (BC comb)", rate(() -> x9.getG().multiply(k).normalize().getEncoded(true)));
            }
            OprfServer server = Oprf.server(t.key, t.suite);
            for (int n : t.name.equals("p256") ? new int[] {1, batch} : new int[] {1}) {
                List<List<byte[]>> batches = new ArrayList<>();
                ElementSource src = new ElementSource(t);
                for (int j = 0; j < 64; j++) {
                    batches.add(src.next(n));
                }
                int[] i = {0};
                double wall = rate(() -> server.blindEvaluate(batches.get(i[0]++ & 63))) * n;
                lastCpuRate *= n;
                double r = lastCpuRate;
                rawRate.put(t.name + "/" + n, r);
                row(String.format(Locale.ROOT, "%s server evaluation, OprfServer.blindEvaluate batch %d%s (per element)", t.label(), n,
                        t.name.equals("p256") ? " incl. DLEQ proof" : ""), wall);
            }
        }
        out.println();
        out.println("raw limit used below: 2 cores x the per-CPU-second rate of OprfServer.blindEvaluate (what a worker runs per query; "
                + "CPU time, so that other tenants' load does not lower the limit); RSA batches cost the same per element as batch 1");
        out.println();
    }

    private interface Op {
        Object run() throws Exception;
    }

    /** Last rate()'s operations per second of thread CPU time (what one dedicated core would do). */
    private double lastCpuRate;

    /** Operations per wall-clock second; {@link #lastCpuRate} gets them per CPU second. */
    private double rate(Op op) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        long warm = System.nanoTime() + (long) (primitiveSeconds / 2 * 1e9);
        while (System.nanoTime() < warm) {
            sink += op.run().hashCode();
        }
        long cpu0 = mx.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long end = start + (long) (primitiveSeconds * 1e9);
        long ops = 0;
        long now;
        do {
            for (int j = 0; j < 8; j++) {
                sink += op.run().hashCode();
            }
            ops += 8;
            now = System.nanoTime();
        } while (now < end);
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        if (sink == 42) {
            out.print("");
        }
        lastCpuRate = ops / (Math.max(1, cpu) / 1e9);
        return ops / ((now - start) / 1e9);
    }

    private void row(String name, double opsPerSecond) {
        out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.1f |%n", name, opsPerSecond, lastCpuRate, 1e6 / lastCpuRate);
    }

    private double rawFor(Target t, int n) {
        Double r = rawRate.get(t.name + "/" + (t.name.equals("p256") ? n : 1));
        if (r == null && t.name.equals("p256")) {
            r = rawRate.get(t.name + "/1");
        }
        return r == null ? Double.NaN : r;
    }

    // ---------------------------------------------------------------- (b) closed loop

    private void closedLoop(Target t, String transport, int n) throws Exception {
        long warmEnd = System.nanoTime() + (long) (closedWarmup * 1e9);
        long end = warmEnd + (long) (closedSeconds * 1e9);
        List<LongList> lat = new ArrayList<>();
        AtomicLong queries = new AtomicLong(), elements = new AtomicLong(), lost = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(threads);
        for (int c = 0; c < threads; c++) {
            LongList mine = new LongList();
            lat.add(mine);
            ElementSource src = new ElementSource(t);
            List<byte[]> pool = src.next(Math.max(256, 4 * n));
            Thread th = new Thread(() -> {
                try (Exchange conn = t.exchange("bench", t.server, transport, timeoutMs)) {
                    conn.connect();
                    ready.countDown();
                    ready.await();
                    int at = 0;
                    while (true) {
                        List<byte[]> els = new ArrayList<>(n);
                        for (int j = 0; j < n; j++) {
                            els.add(pool.get(at++ % pool.size()));
                        }
                        byte[] req = new EvaluationRequest(t.suite, t.keyId, els).encode();
                        long s = System.nanoTime();
                        if (s >= end) {
                            break;
                        }
                        boolean ok = query(conn, req, n);
                        long e = System.nanoTime();
                        if (s >= warmEnd && e <= end) {
                            if (ok) {
                                mine.add(e - s);
                                queries.incrementAndGet();
                                elements.addAndGet(n);
                            } else {
                                lost.incrementAndGet();
                            }
                        }
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                    ready.countDown();
                }
            }, "load-" + c);
            th.start();
            ts.add(th);
        }
        LockSupport.parkNanos(Math.max(0, warmEnd - System.nanoTime()));
        Cpu c0 = Cpu.now();
        LockSupport.parkNanos(Math.max(0, end - System.nanoTime()));
        Cpu.Use use = Cpu.now().since(c0);
        for (Thread th : ts) {
            th.join();
        }
        if (!failures.isEmpty()) {
            throw new IOException("closed loop " + t.name + " " + transport + " failed", failures.get(0));
        }
        long[] all = LongList.merge(lat);
        double secs = closedSeconds;
        double eps = elements.get() / secs;
        double raw = 2 * rawFor(t, n);
        if (transport.equals("v2") && n == 1) {
            closedV2Single.put(t.name, eps);
        }
        out.printf(Locale.ROOT, "| %s | %s | %d | %,.0f | %,.0f | %.2f | %.2f | %d | %,.0f | %.0f%% | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f%% | %.0f%% |%n",
                t.label(), transport, n, queries.get() / secs, eps, pct(all, 50), pct(all, 99), lost.get(), raw, 100 * eps / raw, use.jvmCores,
                use.serverCores, use.loadCores, use.jitGcCores, use.otherCores, 100 * eps / (use.jvmCores * raw / 2), 100 * eps / (use.serverCores * raw / 2));
    }

    // ---------------------------------------------------------------- (c) Figure 4

    /** One step of the sweep. */
    private static final class Step {
        final int rate;
        final int count;
        final byte[] sessionId;
        final byte[] sessionKey;
        final long[] sent;
        final long[] received;
        final boolean[] ok;

        Step(int rate, int count, SessionGrant g) {
            this.rate = rate;
            this.count = count;
            this.sessionId = g.sessionId();
            this.sessionKey = g.sessionKey();
            this.sent = new long[count];
            this.received = new long[count];
            this.ok = new boolean[count];
        }
    }

    /** What the sweep found for one key. */
    private static final class Fig4Result {
        final List<int[]> offered = new ArrayList<>();
        final List<double[]> stats = new ArrayList<>(); // answered %, p50 ms, p99 ms, goodput/s
        double saturation;
        int saturationRate;
        double saturationJvmCores;
        double saturationServerCores;
        double saturationOtherCores;
        int highestLossless;
        int firstLossy = -1;
    }

    private void fig4(Target t) throws Exception {
        out.println("## (c) Figure 4 sweep, " + t.label() + ", OPRFv2, batch 1, open loop");
        out.println();
        out.println("offered " + (fig4Rates != null ? "rates " + fig4Rates : fig4RateStep + "*i") + " queries/s, each query one fresh random blinded element, "
                + "sent on schedule whatever the answers; "
                + "answered = valid OK answer within " + timeoutMs + " ms; goodput = answered / (first send to last answer)");
        out.println();
        out.println(CPU_COLUMNS);
        out.println();
        Fig4Result res = new Fig4Result();
        fig4Results.put(t.name, res);
        try (HttpsExchange init = t.client("bench", t.server).timeout(HTTP_TIMEOUT).openHttpsExchange();
                DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            socket.setReceiveBufferSize(4 << 20);
            socket.setSendBufferSize(4 << 20);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), t.server.udpPort()));
            socket.setSoTimeout(50);
            Step[] current = new Step[1];
            AtomicLong lastReceive = new AtomicLong(System.nanoTime());
            AtomicLong errors = new AtomicLong();
            stopReceiver = false;
            Thread receiver = new Thread(() -> receive(socket, current, lastReceive, errors), "fig4-receiver");
            receiver.setDaemon(true);
            receiver.start();
            ElementSource src = new ElementSource(t);
            if (fig4WarmupSeconds > 0) {
                // the JIT compiles the transport path during the first tens of thousands of queries and competes with
                // the server for the 2 cores meanwhile; a long-running server is past that, so the sweep starts after it
                double raw = 2 * rawFor(t, 1);
                int rate = (int) Math.max(100, Double.isNaN(raw) ? 1000 : 0.6 * raw);
                double[] w = null;
                int rounds = 0;
                while (rounds < fig4WarmupSeconds && (rounds < 3 || w[10] >= 0.03)) {
                    w = step(t, init, socket, current, lastReceive, errors, src, rate, rate);
                    rounds++;
                }
                out.printf(Locale.ROOT, "warm-up (not measured): %d rounds of 1 s at %d/s; in the last one %.1f%% answered, p99 %.2f ms, JIT+GC %.2f cores%n%n",
                        rounds, rate, w[0], w[2], w[10]);
            }
            out.println("| i | offered q/s | actually sent q/s | queries | answered % | goodput q/s | p50 ms | p99 ms | late | error answers "
                    + "| JVM cores | server cores | load gen cores | JIT+GC cores | other cores |");
            out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            int lossyRun = 0;
            int lossyInARow = 0;
            boolean losslessSoFar = true;
            int lastStep = fig4Rates != null ? fig4Rates.size() : fig4Steps;
            for (int i = 1; i <= lastStep; i++) {
                int rate = fig4Rates != null ? fig4Rates.get(i - 1) : i * fig4RateStep;
                int count = (int) Math.min(fig4Queries, Math.max(1, Math.round(rate * fig4StepSeconds)));
                double[] st = step(t, init, socket, current, lastReceive, errors, src, rate, count);
                double answeredPct = st[0], goodput = st[3];
                out.printf(Locale.ROOT, "| %d | %d | %,.0f | %d | %.1f | %,.0f | %.2f | %.2f | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f |%n", i, rate,
                        st[4], count, answeredPct, goodput, st[1], st[2], st[5], st[6], st[7], st[8], st[9], st[10], st[11]);
                out.flush();
                res.offered.add(new int[] {i, rate, count});
                res.stats.add(new double[] {answeredPct, st[1], st[2], goodput});
                if (goodput > res.saturation) {
                    res.saturation = goodput;
                    res.saturationRate = rate;
                    res.saturationJvmCores = st[7];
                    res.saturationServerCores = st[8];
                    res.saturationOtherCores = st[11];
                }
                if (answeredPct == 100) {
                    if (losslessSoFar) {
                        res.highestLossless = rate;
                    }
                } else {
                    losslessSoFar = false;
                    if (res.firstLossy < 0) {
                        res.firstLossy = rate;
                    }
                }
                lossyRun = answeredPct < 50 ? lossyRun + 1 : 0;
                if (fig4StopAfter > 0 && lossyRun >= fig4StopAfter) {
                    out.println();
                    out.println("stopped after " + lossyRun + " consecutive steps under 50% answered (--fig4-stop-after " + fig4StopAfter + ")");
                    break;
                }
                lossyInARow = answeredPct < 100 ? lossyInARow + 1 : 0;
                if (i == lastStep && fig4Extend && fig4Rates == null && lossyInARow < 3 && lastStep < 3 * fig4Steps) {
                    // the last steps were not all lossy: the sweep may not have reached saturation yet, so it goes on
                    lastStep++;
                }
            }
            if (fig4Rates == null && lastStep > fig4Steps) {
                out.println();
                out.println("(steps past i = " + fig4Steps + ": the sweep goes on until three steps in a row lose queries, to find saturation; "
                        + "--no-fig4-extend stops at i = " + fig4Steps + ")");
            }
            stopReceiver = true;
            receiver.join(1000);
        }
        out.println();
        out.printf(Locale.ROOT, "%s: saturation goodput %,.0f q/s (at offered %d/s, JVM %.2f cores of which server %.2f, others %.2f cores); highest offered "
                + "rate with no loss (all steps up to it lossless): %d/s; first step with loss: %s%n", t.label(), res.saturation, res.saturationRate,
                res.saturationJvmCores, res.saturationServerCores, res.saturationOtherCores, res.highestLossless,
                res.firstLossy < 0 ? "none" : res.firstLossy + "/s");
        out.println();
    }

    /**
     * Sends {@code count} queries at {@code rate}/s on a new session, waits for the answers (the timeout, then until the
     * server has been quiet for 200 ms, at most 5 s) and returns {answered %, p50 ms, p99 ms, goodput/s, sent/s, late,
     * error answers, JVM cores, server cores, load gen cores, JIT+GC cores, other cores}.
     */
    private double[] step(Target t, HttpsExchange init, DatagramSocket socket, Step[] current, AtomicLong lastReceive, AtomicLong errors,
            ElementSource src, int rate, int count) throws Exception {
        long timeout = timeoutMs * 1_000_000L;
        SessionGrant g = init.openSession();
        Step step = new Step(rate, count, g);
        byte[][] frames = new byte[count][];
        List<byte[]> els = src.next(count);
        for (int k = 0; k < count; k++) {
            byte[] req = new EvaluationRequest(t.suite, t.keyId, List.of(els.get(k))).encode();
            frames[k] = DatagramFrame.seal(DatagramFrame.REQUEST, step.sessionId, k + 1, req, step.sessionKey);
        }
        long errorsBefore = errors.get();
        synchronized (current) {
            current[0] = step;
        }
        Cpu c0 = Cpu.now();
        long start = System.nanoTime();
        double interval = 1e9 / rate;
        for (int k = 0; k < count; k++) {
            long target = start + (long) (k * interval);
            long wait = target - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            step.sent[k] = System.nanoTime();
            socket.send(new DatagramPacket(frames[k], frames[k].length));
        }
        Cpu.Use use = Cpu.now().since(c0);
        long lastSent = step.sent[count - 1];
        // the step lasts count intervals; when the sender fell behind, its real duration
        double stepSeconds = Math.max(count / (double) rate, (lastSent - start + interval) / 1e9);
        while (System.nanoTime() < lastSent + timeout) {
            LockSupport.parkNanos(10_000_000L);
        }
        int answered = 0, late = 0;
        long lastAnswer = start;
        LongList lat = new LongList();
        synchronized (current) {
            current[0] = null;
            for (int k = 0; k < count; k++) {
                if (step.received[k] != 0 && step.ok[k]) {
                    long l = step.received[k] - step.sent[k];
                    if (l <= timeout) {
                        answered++;
                        lat.add(l);
                        lastAnswer = Math.max(lastAnswer, step.received[k]);
                    } else {
                        late++;
                    }
                }
            }
        }
        long[] l = lat.toSortedArray();
        // answers per second over the time the server took to give them: a backlog answered after the last
        // send (within the timeout) does not count as extra capacity
        double goodput = answered / Math.max(stepSeconds, (lastAnswer - start) / 1e9);
        // let the server finish what is queued, so that each step starts from an idle server
        long drainDeadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() - lastReceive.get() < 200_000_000L && System.nanoTime() < drainDeadline) {
            LockSupport.parkNanos(20_000_000L);
        }
        return new double[] {100.0 * answered / count, pct(l, 50), pct(l, 99), goodput, count / stepSeconds, late, errors.get() - errorsBefore,
            use.jvmCores, use.serverCores, use.loadCores, use.jitGcCores, use.otherCores};
    }

    private volatile boolean stopReceiver;

    private void receive(DatagramSocket socket, Step[] current, AtomicLong lastReceive, AtomicLong errors) {
        byte[] buf = new byte[65536];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        while (!stopReceiver && !socket.isClosed()) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return;
            }
            long now = System.nanoTime();
            lastReceive.set(now);
            byte[] in = Arrays.copyOf(p.getData(), p.getLength());
            synchronized (current) {
                Step s = current[0];
                long seq = s == null ? -1 : DatagramFrame.answerSequence(in, s.sessionId, s.sessionKey);
                if (seq < 1 || seq > s.count || s.received[(int) seq - 1] != 0) {
                    continue;
                }
                s.received[(int) seq - 1] = now;
                try {
                    EvaluationResponse r = EvaluationResponse.decode(DatagramFrame.body(in));
                    s.ok[(int) seq - 1] = r.status() == Status.OK && r.evaluation().size() == 1;
                } catch (MalformedMessageException e) {
                    s.ok[(int) seq - 1] = false;
                }
                if (!s.ok[(int) seq - 1]) {
                    errors.incrementAndGet();
                }
            }
        }
    }

    // ---------------------------------------------------------------- (e) rate-limit delay accuracy

    /** The "delays within 10% of configured", measured: fixed delays on both transports, exponential on OPRFv2. */
    private void delayAccuracy(Target t) throws Exception {
        out.println("## (e) rate-limit delay accuracy, " + t.label() + ", " + delayClients + " clients at once");
        out.println();
        out.println("each client has its own identity (the active-client list would drop a second pending query of one identity), sends one "
                + "query of one fresh random blinded element, waits for the answer, then sends the next; latency = send to valid answer at the client, "
                + "i.e. the server's delay plus the loopback round trip and the evaluation; error = (latency - configured) / configured; "
                + "early = latency below the configured delay; in 10% = share of the queries with 0 <= error <= 10%; one new server per rate limit");
        out.println();
        out.println("| rate limit | transport | configured ms | queries | lost | early | p50 ms | p99 ms | max ms | error p50 | error p99 | max error "
                + "| in 10% | JVM cores | other cores |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<String> missed = new ArrayList<>();
        List<String> met = new ArrayList<>();
        // no delay, one client back to back: the round trip and evaluation every delayed query also pays (and a warm-up)
        long[] none = new long[Math.max(200, (int) (fixedSeconds * 300))];
        delayRun(t, t.server, List.of("bench"), "v2", none, 1, 0);
        DelayRun base = delayRun(t, t.server, List.of("bench"), "v2", none, 1, 0);
        delayRows("none (1 client)", "v2", base, met, missed);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < delayClients; i++) {
            ids.add("delay-" + i);
        }
        for (int ms : fixedDelaysMs) {
            String spec = "fixed:delay=" + ms + "ms";
            long[] plan = new long[(int) Math.max(5, Math.round(fixedSeconds * 1000 / ms))];
            Arrays.fill(plan, ms * 1_000_000L);
            for (String transport : List.of("v2", "v1")) {
                try (KeyServer server = t.startServer(spec)) {
                    delayRows(spec, transport, delayRun(t, server, ids, transport, plan, 1, 0), met, missed);
                }
            }
        }
        long initial = expDelayMs.get(0) * 1_000_000L, max = expDelayMs.get(1) * 1_000_000L, epoch = expDelayMs.get(2) * 1_000_000L;
        String spec = "exp:initial=" + expDelayMs.get(0) + "ms,max=" + expDelayMs.get(1) + "ms,epoch=" + expDelayMs.get(2) + "ms";
        // one round: the initial delay doubling up to the cap, two queries at the cap; then an idle epoch resets it
        LongList round = new LongList();
        for (long d = initial; ; d = Math.min(max, d * 2)) {
            round.add(d);
            if (d == max) {
                round.add(d);
                break;
            }
        }
        try (KeyServer server = t.startServer(spec)) {
            delayRows(spec, "v2", delayRun(t, server, ids, "v2", Arrays.copyOf(round.a, round.n), expRounds, epoch + 100_000_000L), met, missed);
        }
        out.println();
        out.println("delays within 10% of configured (every query 0 <= error <= 10%): met for " + (met.isEmpty() ? "none" : String.join(", ", met))
                + "; missed for " + (missed.isEmpty() ? "none" : String.join(", ", missed)));
        out.println();
    }

    /** What the clients of one part-e run measured: per query {configured delay, latency or -1 if lost}, all in ns. */
    private static final class DelayRun {
        final List<long[]> samples = new ArrayList<>();
        Cpu.Use cpu;
    }

    /**
     * Each identity runs {@code plan} (the configured delay of each query) {@code rounds} times, pausing {@code pauseNanos}
     * between rounds, all identities at once.
     */
    private DelayRun delayRun(Target t, KeyServer server, List<String> ids, String transport, long[] plan, int rounds, long pauseNanos)
            throws Exception {
        long maxDelay = Arrays.stream(plan).max().orElse(0);
        int timeout = (int) Math.max(timeoutMs, 2 * maxDelay / 1_000_000 + 500);
        DelayRun run = new DelayRun();
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(ids.size());
        for (String id : ids) {
            List<byte[]> els = new ElementSource(t).next(plan.length * rounds);
            Thread th = new Thread(() -> {
                List<long[]> mine = new ArrayList<>();
                try (Exchange conn = t.exchange(id, server, transport, timeout)) {
                    conn.connect();
                    ready.countDown();
                    ready.await();
                    for (int r = 0; r < rounds; r++) {
                        if (r > 0) {
                            LockSupport.parkNanos(pauseNanos);
                        }
                        for (int k = 0; k < plan.length; k++) {
                            byte[] req = new EvaluationRequest(t.suite, t.keyId, List.of(els.get(r * plan.length + k))).encode();
                            long s = System.nanoTime();
                            boolean ok = query(conn, req, 1);
                            long e = System.nanoTime();
                            mine.add(new long[] {plan[k], ok ? e - s : -1});
                        }
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                    ready.countDown();
                }
                synchronized (run) {
                    run.samples.addAll(mine);
                }
            }, "delay-client");
            th.start();
            threads.add(th);
        }
        ready.await();
        Cpu c0 = Cpu.now();
        for (Thread th : threads) {
            th.join();
        }
        run.cpu = Cpu.now().since(c0);
        if (!failures.isEmpty()) {
            throw new IOException("delay run " + transport + " failed", failures.get(0));
        }
        return run;
    }

    /** One table row per configured delay of the run. */
    private void delayRows(String spec, String transport, DelayRun run, List<String> met, List<String> missed) {
        TreeMap<Long, List<Long>> byDelay = new TreeMap<>();
        for (long[] q : run.samples) {
            byDelay.computeIfAbsent(q[0], k -> new ArrayList<>()).add(q[1]);
        }
        for (Map.Entry<Long, List<Long>> e : byDelay.entrySet()) {
            long configured = e.getKey();
            LongList lat = new LongList();
            int lost = 0, early = 0, within = 0;
            for (long l : e.getValue()) {
                if (l < 0) {
                    lost++;
                    continue;
                }
                lat.add(l);
                early += l < configured ? 1 : 0;
                within += l >= configured && l <= configured + configured / 10 ? 1 : 0;
            }
            long[] l = lat.toSortedArray();
            String err50 = "-", err99 = "-", errMax = "-", in10 = "-";
            if (configured > 0 && l.length > 0) {
                double c = configured / 1e6;
                err50 = String.format(Locale.ROOT, "%+.1f%%", 100 * (pct(l, 50) - c) / c);
                err99 = String.format(Locale.ROOT, "%+.1f%%", 100 * (pct(l, 99) - c) / c);
                errMax = String.format(Locale.ROOT, "%+.1f%%", 100 * (l[l.length - 1] / 1e6 - c) / c);
                in10 = String.format(Locale.ROOT, "%.1f%%", 100.0 * within / e.getValue().size());
                String what = String.format(Locale.ROOT, "%s %s %.0f ms (max error %s)", spec.startsWith("exp") ? "exp" : "fixed", transport, c, errMax);
                (within == e.getValue().size() ? met : missed).add(what);
            }
            out.printf(Locale.ROOT, "| %s | %s | %.0f | %d | %d | %d | %.2f | %.2f | %.2f | %s | %s | %s | %s | %.2f | %.2f |%n", spec, transport, configured / 1e6,
                    e.getValue().size(), lost, early, pct(l, 50), pct(l, 99), l.length == 0 ? Double.NaN : l[l.length - 1] / 1e6, err50, err99, errMax, in10,
                    run.cpu.jvmCores, run.cpu.otherCores);
        }
        out.flush();
    }

    // ---------------------------------------------------------------- (d) summary

    private void summary(List<Target> targets, int cores) {
        out.println("## (d) summary");
        out.println();
        out.println("| key | raw limit: 2 x 1-thread evaluations/s | v2 closed-loop saturation | ratio | Fig. 4 saturation goodput | ratio "
                + "| target >= 80% | no loss below 90% of saturation | p99 at ~half saturation | target p99 < 5 ms |");
        out.println("|---|---:|---:|---:|---:|---:|---|---|---:|---|");
        for (Target t : targets) {
            double raw = 2 * rawFor(t, 1);
            Double closed = closedV2Single.get(t.name);
            Fig4Result f = fig4Results.get(t.name);
            String closedS = closed == null ? "not run" : String.format(Locale.ROOT, "%,.0f", closed);
            String closedR = closed == null || Double.isNaN(raw) ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * closed / raw);
            String figS = "not run", figR = "-", target = "-", noLoss = "-", p99 = "-", p99t = "-";
            double best = closed == null ? 0 : closed;
            if (f != null) {
                figS = String.format(Locale.ROOT, "%,.0f", f.saturation);
                figR = Double.isNaN(raw) ? "-" : String.format(Locale.ROOT, "%.0f%% (%.0f%% per JVM core, %.0f%% per server core)", 100 * f.saturation / raw,
                        100 * f.saturation / (f.saturationJvmCores * raw / 2), 100 * f.saturation / (f.saturationServerCores * raw / 2));
                best = Math.max(best, f.saturation);
                double sat = f.saturation;
                boolean clean = true;
                int worstRate = -1;
                double worstPct = 100;
                double bestHalfDiff = Double.MAX_VALUE;
                double halfP99 = Double.NaN;
                int halfRate = 0;
                for (int j = 0; j < f.offered.size(); j++) {
                    int rate = f.offered.get(j)[1];
                    double[] st = f.stats.get(j);
                    if (rate < 0.9 * sat && st[0] < 100) {
                        clean = false;
                        if (st[0] < worstPct) {
                            worstPct = st[0];
                            worstRate = rate;
                        }
                    }
                    double diff = Math.abs(rate - sat / 2);
                    if (rate <= sat / 2 + fig4RateStep / 2.0 && diff < bestHalfDiff) {
                        bestHalfDiff = diff;
                        halfP99 = st[2];
                        halfRate = rate;
                    }
                }
                noLoss = clean ? String.format(Locale.ROOT, "met (every step < %,.0f/s lossless)", 0.9 * sat)
                        : String.format(Locale.ROOT, "missed (%.1f%% answered at %d/s)", worstPct, worstRate);
                p99 = Double.isNaN(halfP99) ? "-" : String.format(Locale.ROOT, "%.2f ms at %d/s", halfP99, halfRate);
                p99t = Double.isNaN(halfP99) ? "-" : halfP99 < 5 ? "met" : "missed";
            }
            if (!Double.isNaN(raw) && best > 0) {
                target = best >= 0.8 * raw ? String.format(Locale.ROOT, "met (%.0f%%)", 100 * best / raw)
                        : String.format(Locale.ROOT, "missed (%.0f%%)", 100 * best / raw);
            }
            out.printf(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s | %s | %s | %s | %s |%n", t.label(), raw, closedS, closedR, figS, figR, target, noLoss, p99, p99t);
        }
        Fig4Result r1024 = fig4Results.get("rsa1024");
        if (r1024 != null) {
            out.println();
            out.printf(Locale.ROOT, "RSA-1024 vs DupLESS (paper: ~3,000 queries/s without loss on OPRFv2): highest offered rate with no loss here %,d/s, "
                    + "saturation goodput %,.0f/s (%d cores shared with the load generator)%n", r1024.highestLossless, r1024.saturation, cores);
        }
    }

    // ---------------------------------------------------------------- helpers

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * CPU accounting: this JVM's CPU time, split into the key server's threads, the JIT compiler and garbage collector
     * threads, and the rest (the load generator: it is all that runs besides them), and the whole machine's busy time
     * (/proc/stat). Per-thread times come from /proc/self/task/TID/schedstat (nanoseconds on a CPU).
     */
    private static final class Cpu {
        final long wall;
        final long process;
        final long server;
        final long jitGc;
        final long busyJiffies;
        final long totalJiffies;

        private Cpu(long wall, long process, long server, long jitGc, long busy, long total) {
            this.wall = wall;
            this.process = process;
            this.server = server;
            this.jitGc = jitGc;
            this.busyJiffies = busy;
            this.totalJiffies = total;
        }

        /** {server, JIT + GC} nanoseconds on a CPU of the threads alive now, by thread name (the kernel keeps 15 characters). */
        private static long[] threadTimes() {
            long server = 0, jitGc = 0;
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path t : tasks.toList()) {
                    try {
                        String name = Files.readString(t.resolve("comm")).trim();
                        boolean isServer = name.startsWith("ks-") && !name.startsWith("ks-client");
                        boolean isJitGc = name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre") || name.startsWith("GC Thread")
                                || name.startsWith("G1 ") || name.equals("VM Thread");
                        if (isServer || isJitGc) {
                            long ns = Long.parseLong(Files.readString(t.resolve("schedstat")).trim().split(" ")[0]);
                            if (isServer) {
                                server += ns;
                            } else {
                                jitGc += ns;
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        // the thread ended meanwhile
                    }
                }
            } catch (IOException e) {
                return new long[] {-1, -1};
            }
            return new long[] {server, jitGc};
        }

        static Cpu now() {
            long busy = 0, total = 0;
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                for (int i = 1; i < f.length && i <= 8; i++) {
                    long v = Long.parseLong(f[i]);
                    total += v;
                    if (i != 4 && i != 5) {
                        busy += v;
                    }
                }
            } catch (IOException | RuntimeException e) {
                busy = total = 0;
            }
            long[] threads = threadTimes();
            long process = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
            return new Cpu(System.nanoTime(), process, threads[0], threads[1], busy, total);
        }

        /** Cores used on average since {@code before}. */
        static final class Use {
            final double jvmCores;
            final double otherCores;
            /** The key server's threads (ks-io, ks-eval, ks-accept, ks-delay). */
            final double serverCores;
            /** JIT compiler and GC threads. */
            final double jitGcCores;
            /** The rest of the JVM: the load generator's threads (and threads that ended during the window). */
            final double loadCores;

            Use(double jvm, double other, double server, double jitGc) {
                this.jvmCores = jvm;
                this.otherCores = other;
                this.serverCores = server;
                this.jitGcCores = jitGc;
                this.loadCores = Math.max(0, jvm - server - jitGc);
            }
        }

        Use since(Cpu before) {
            double wallNs = Math.max(1, wall - before.wall);
            double jvm = (process - before.process) / wallNs;
            long dt = totalJiffies - before.totalJiffies;
            double machine = dt <= 0 ? Double.NaN : (double) (busyJiffies - before.busyJiffies) / dt * Runtime.getRuntime().availableProcessors();
            boolean threads = server >= 0 && before.server >= 0;
            return new Use(jvm, Double.isNaN(machine) ? Double.NaN : Math.max(0, machine - jvm), threads ? (server - before.server) / wallNs : Double.NaN,
                    threads ? (jitGc - before.jitGc) / wallNs : Double.NaN);
        }
    }

    /** A growable array of longs. */
    private static final class LongList {
        private long[] a = new long[1024];
        private int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        long[] toSortedArray() {
            long[] r = Arrays.copyOf(a, n);
            Arrays.sort(r);
            return r;
        }

        static long[] merge(List<LongList> lists) {
            int total = 0;
            for (LongList l : lists) {
                total += l.n;
            }
            long[] r = new long[total];
            int at = 0;
            for (LongList l : lists) {
                System.arraycopy(l.a, 0, r, at, l.n);
                at += l.n;
            }
            Arrays.sort(r);
            return r;
        }
    }

    // ---------------------------------------------------------------- server under test

    /** One key: a directory, the server serving it, and what clients need. */
    private static final class Target implements AutoCloseable {
        final String name;
        final int bits;
        final KeyServerDirectory dir;
        final OprfPrivateKey key;
        final Suite suite;
        final KeyId keyId;
        final int elementLength;
        final KeyServer server;
        final Integer workers;

        private Target(String name, int bits, KeyServerDirectory dir, OprfPrivateKey key, KeyServer server, Integer workers) {
            this.name = name;
            this.bits = bits;
            this.dir = dir;
            this.key = key;
            this.suite = key.publicKey().defaultSuite();
            this.keyId = key.keyId();
            this.elementLength = key instanceof RsaOprfPrivateKey ? ((RsaOprfPrivateKey) key).publicKey().modulusLength() : 33;
            this.server = server;
            this.workers = workers;
        }

        /** A key, its directory (clients "bench" and delay-0 .. delay-(delayClients - 1)) and a server without a limit. */
        static Target create(Path root, String name, Integer workers, int delayClients) throws Exception {
            KeyServerInit.Options o = new KeyServerInit.Options().client("bench");
            for (int i = 0; i < delayClients; i++) {
                o.client("delay-" + i);
            }
            int bits = 0;
            switch (name) {
                case "rsa1024":
                case "rsa2048":
                case "rsa3072":
                    bits = Integer.parseInt(name.substring(3));
                    o.algorithm(KeyServerInit.OprfAlgorithm.RSA).rsaBits(bits);
                    break;
                case "p256":
                    o.algorithm(KeyServerInit.OprfAlgorithm.P256);
                    break;
                default:
                    throw new CommandLine.ParameterException(new CommandLine(new KeyServerLoad()), "unknown key " + name);
            }
            KeyServerDirectory d = KeyServerInit.create(root.resolve(name), o);
            OprfPrivateKey key = d.loadOprfKeys().get(d.currentKeyId());
            return new Target(name, bits, d, key, startServer(d, workers, "none"), workers);
        }

        private static KeyServer startServer(KeyServerDirectory d, Integer workers, String rateLimit) throws Exception {
            KeyServer.Builder b = KeyServer.builder().directory(d.root()).bindAddress("127.0.0.1").httpsPort(0).udpPort(0).rateLimit(rateLimit)
                    // every step and connection opens a session (and connection) under the one certificate
                    .maxSessionsPerClient(1_000_000).maxConnectionsPerClient(1_000_000);
            if (workers != null) {
                b.workerThreads(workers);
            }
            return b.start();
        }

        /** Another server on this key, with a rate limit (part e). */
        KeyServer startServer(String rateLimit) throws Exception {
            return startServer(dir, workers, rateLimit);
        }

        /** A client of {@code server} with the credentials of one of the directory's clients. */
        KeyServerClient.Builder client(String client, KeyServer server) {
            return KeyServerClient.builder().host("127.0.0.1").httpsPort(server.httpsPort()).connectTimeout(HTTP_TIMEOUT)
                    .credentials(dir.clientCertificate(client), dir.clientKey(client), dir.caCertificate());
        }

        /**
         * Round trips of one of the directory's clients with {@code server} on {@code transport} ("v1" or "v2"). OPRFv2
         * answers are awaited {@code timeoutMs}; OPRFv1 answers and KSInit {@link #HTTP_TIMEOUT} (TCP does not lose them).
         */
        Exchange exchange(String client, KeyServer server, String transport, int timeoutMs) throws Exception {
            boolean v1 = transport.equals("v1");
            return client(client, server).transport(v1 ? KeyServerClient.Transport.V1 : KeyServerClient.Transport.V2)
                    .timeout(v1 ? HTTP_TIMEOUT : Duration.ofMillis(timeoutMs)).sessionTimeout(HTTP_TIMEOUT).openExchange();
        }

        String label() {
            return name.equals("p256") ? "P-256 VOPRF" : "RSA-" + bits;
        }

        /** Elements per OPRFv2 query that fit a 1400-byte datagram both ways (what KeyServerClient sends). */
        int datagramCapacity() {
            return ProtocolLimits.elementsPerDatagram(1400, elementLength, suite == Suite.P256_SHA256_VOPRF ? 64 : 0);
        }

        /** A real client on both transports must get the locally computed outputs. */
        void sanityCheck() throws Exception {
            byte[] input = "KeyServerLoad sanity check".getBytes(StandardCharsets.UTF_8);
            byte[] expected;
            try (LocalEvaluator local = LocalEvaluator.of(key)) {
                expected = local.evaluate(List.of(input)).get(0);
            }
            for (KeyServerClient.Transport tr : KeyServerClient.Transport.values()) {
                try (KeyServerClient c = client("bench", server).transport(tr).publicKey(dir.oprfPublicKey(keyId))
                        .timeout(Duration.ofSeconds(2)).cacheSize(0).build()) {
                    if (!Arrays.equals(c.evaluate(input), expected)) {
                        throw new IllegalStateException("server answer does not match the local evaluation (" + tr + ")");
                    }
                }
            }
        }

        @Override
        public void close() {
            server.stop();
        }
    }

    /** Fresh, uniformly random valid blinded elements for a key. */
    private static final class ElementSource {
        private final Target t;
        private final SecureRandom random = new SecureRandom();
        private ECPoint walk;
        private ECPoint stride;
        private ECCurve curve;

        ElementSource(Target t) {
            this.t = t;
            if (t.name.equals("p256")) {
                X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
                curve = x9.getCurve();
                walk = x9.getG().multiply(new BigInteger(255, random).add(BigInteger.ONE)).normalize();
                stride = x9.getG().multiply(new BigInteger(255, random).add(BigInteger.ONE)).normalize();
            }
        }

        ECPoint[] points(int n) {
            ECPoint[] p = new ECPoint[n];
            for (int i = 0; i < n; i++) {
                walk = walk.add(stride);
                p[i] = walk;
            }
            curve.normalizeAll(p);
            walk = p[n - 1];
            return p;
        }

        List<byte[]> next(int n) {
            List<byte[]> out = new ArrayList<>(n);
            if (curve != null) {
                for (ECPoint p : points(n)) {
                    out.add(p.getEncoded(true));
                }
                return out;
            }
            BigInteger mod = ((RsaOprfPublicKey) t.key.publicKey()).modulus();
            for (int i = 0; i < n; i++) {
                BigInteger x = new BigInteger(mod.bitLength() + 64, random).mod(mod);
                byte[] raw = x.toByteArray();
                byte[] el = new byte[t.elementLength];
                int copy = Math.min(raw.length, el.length);
                System.arraycopy(raw, raw.length - copy, el, el.length - copy, copy);
                out.add(el);
            }
            return out;
        }
    }

    // ---------------------------------------------------------------- queries

    /** One query; true for a valid OK answer with n elements, false for no answer within the timeout or an error answer. */
    private static boolean query(Exchange conn, byte[] request, int n) throws IOException, InterruptedException {
        byte[] answer;
        try {
            answer = conn.exchange(request);
        } catch (SocketTimeoutException | HttpTimeoutException e) {
            return false;
        }
        return okAnswer(answer, n);
    }

    private static boolean okAnswer(byte[] body, int n) {
        try {
            EvaluationResponse r = EvaluationResponse.decode(body);
            return r.status() == Status.OK && r.evaluation().size() == n;
        } catch (MalformedMessageException e) {
            return false;
        }
    }
}

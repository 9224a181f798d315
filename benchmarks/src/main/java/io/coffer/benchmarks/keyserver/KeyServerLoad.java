package io.coffer.benchmarks.keyserver;

import io.coffer.benchmarks.EngineBenchmark;
import io.coffer.keyserver.client.Exchange;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.LocalEvaluator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
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
            description = "Stop a sweep after this many consecutive steps answering under 50%% (0: never). Default: ${DEFAULT-VALUE}.")
    int fig4StopAfter;

    @Option(names = "--fig4-warmup-seconds", defaultValue = "40",
            description = "Before each sweep, rounds of 1 s of queries (at 60%% of the raw limit, or 1000/s without part a), not measured, "
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
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);

    final PrintStream out = System.out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new KeyServerLoad()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long t0 = System.nanoTime();
        int cores = Runtime.getRuntime().availableProcessors();
        out.println("# KeyServerLoad");
        out.println("machine: " + cores + " cores (availableProcessors), CPU " + LoadReport.cpuModel() + ", " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + ", " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        out.println("load average at start: " + LoadReport.loadAverage());
        out.println("server and load generator share this JVM and these cores; traffic only to 127.0.0.1; rate limit none (part e: the limits it names)");
        out.println("options: keys=" + keys + " parts=" + parts + " threads=" + threads + " batch=" + batch + " timeout=" + timeoutMs + "ms"
                + " fig4: steps=" + fig4Steps + " x " + fig4RateStep + "/s, " + fig4StepSeconds + " s/step, <= " + fig4Queries + " queries/step");
        out.println();
        Path root = Files.createTempDirectory("ks-bench");
        List<LoadTarget> targets = new ArrayList<>();
        PrimitiveRates primitives = new PrimitiveRates(this);
        ClosedLoop closedLoop = new ClosedLoop(this, primitives);
        Figure4 figure4 = new Figure4(this, primitives);
        try {
            for (String k : keys) {
                targets.add(LoadTarget.create(root, k.trim().toLowerCase(Locale.ROOT), workers, parts.contains("e") && targets.isEmpty() ? delayClients : 0));
            }
            if (parts.contains("a")) {
                primitives.run(targets);
            }
            if (parts.contains("b")) {
                closedLoop.run(targets);
            }
            if (parts.contains("c")) {
                List<String> f4 = fig4Keys == null ? keys : fig4Keys;
                for (LoadTarget t : targets) {
                    if (f4.contains(t.name)) {
                        t.sanityCheck();
                        figure4.run(t);
                    }
                }
            }
            if (parts.contains("e")) {
                new DelayAccuracy(this).run(targets.get(0));
            }
            if (parts.contains("a") || parts.contains("b") || parts.contains("c")) {
                new LoadReport(this, primitives, closedLoop, figure4).summary(targets, cores);
            }
        } finally {
            for (LoadTarget t : targets) {
                t.close();
            }
            EngineBenchmark.deleteTree(root);
        }
        out.println();
        out.printf(Locale.ROOT, "load average at end: %s; total run time %.0f s%n", LoadReport.loadAverage(), (System.nanoTime() - t0) / 1e9);
        return 0;
    }
}

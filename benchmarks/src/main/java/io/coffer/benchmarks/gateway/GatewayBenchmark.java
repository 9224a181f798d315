package io.coffer.benchmarks.gateway;

import io.coffer.benchmarks.EngineBenchmark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * End-to-end S3 benchmark, all in one run, one client configuration (AWS SDK v2 sync client over the Apache HTTP
 * client, SDK default checksums and signing, no retries) and one backend (s3proxy, filesystem provider, in a
 * temporary directory, in its own JVM):
 * <ol>
 * <li><b>direct</b>: client → backend s3proxy;</li>
 * <li><b>relay</b>: client → a bare TCP relay ({@link TcpRelay}, own JVM) → backend: bytes forwarded unchanged, no
 *   HTTP, no crypto: what one extra hop costs on this machine, since every gateway at least receives each byte on
 *   one socket and sends it on another;</li>
 * <li><b>coffer</b>: client → {@code coffer serve} (own JVM, started from the checkout's launcher as a user starts
 *   it; backend s3 = the backend s3proxy, SQLite metadata) → backend;</li>
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
 * {@code --root DIR} (the checkout whose {@code coffer} launcher starts the gateways; default the working directory),
 * {@code --settle yes|no} (yes: {@code sync} before each phase, outside the timing),
 * {@code --out FILE} (markdown results, default {@code target/gateway-bench/results.md}),
 * {@code --jfr FILE} (record the Coffer gateway with JFR, profile settings),
 * {@code --coffer-jvm-args "ARGS"} (more JVM arguments for the gateways, in {@code COFFER_JAVA_OPTS} after the
 * launcher's own, e.g. a profiler agent),
 * {@code --targets LIST} (comma-separated subset of {@code direct,relay,coffer,s3proxy-enc} to measure, default all; for
 * quick A/B runs of one path: the others' cells stay empty and the ratios to them read NaN); naming {@code coffer-por}
 * there adds a fifth path, a second Coffer gateway with proofs of retrievability on (embedded PoR server of
 * 2^{@code --por-k} (16) blocks of 64 KiB), and a section comparing it with {@code coffer} in the same run.
 *
 * <p>This class reads the options and runs the rounds; {@link TargetSet} starts the four paths, {@link Workload}
 * measures one, {@link GatewayReport} writes the results.
 */
public final class GatewayBenchmark {
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
    private final int porK;
    private final Path launcher;
    private final boolean settle;

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
        porK = measured.contains("coffer-por") ? Integer.parseInt(o.getOrDefault("por-k", "16")) : 0;
        launcher = Path.of(o.getOrDefault("root", ".")).toAbsolutePath().normalize().resolve("coffer");
        settle = !"no".equals(o.getOrDefault("settle", "yes"));
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
            TargetSet targetSet = TargetSet.start(work, heap, cofferJvmArgs, jfr, porK, launcher, all);
            List<Target> targets = targetSet.all();
            String setup = targetSet.setup();
            Workload workload = new Workload(size, threads);

            List<Target> active = targets.stream().filter(t -> measured.contains(t.name)).toList();
            List<ServerProcess> servers = active.stream().flatMap(t -> t.servers.stream()).distinct().toList();
            JitShare lastWarmup = null;
            int warmups = 0;
            while (warmups < warmupRounds
                    || (warmups < maxWarmupRounds && (lastWarmup == null || lastWarmup.max() > jitIdle))) {
                JitShare before = JitShare.of(servers);
                for (Target t : active) {
                    log("warm-up " + (warmups + 1) + "/" + warmupRounds + "+: " + t.name);
                    settle();
                    workload.large(t, warmups == 0 ? 1 : objects, false, true);
                    settle();
                    workload.small(t, warmups == 0 ? Math.max(2, smallSeconds / 3) : smallSeconds, false);
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
                    settle();
                    workload.large(t, objects, true, true);
                    settle();
                    workload.small(t, smallSeconds, true);
                }
            }
            for (Target t : dedupRepeats > 0 ? active : List.<Target>of()) {
                log("dedup row " + t.name);
                settle();
                workload.large(t, dedupRepeats, true, false);
            }
            for (ServerProcess p : all) {
                if (!p.isAlive()) {
                    throw new IllegalStateException(p.name() + " died; its output:\n" + p.output());
                }
            }
            String jit = String.format(Locale.ROOT, "warm-up: %d rounds (at least %d, then until every server JVM's "
                    + "JIT compiler threads used at most %.0f %% of its CPU in a round, at most %d); JIT share of "
                    + "server CPU in the last warm-up round: %s; in the measured rounds: %s; dirty page cache written "
                    + "back (sync) before each phase: %s%n", warmups, warmupRounds, jitIdle * 100, maxWarmupRounds,
                    lastWarmup == null ? "-" : lastWarmup, JitShare.of(servers).since(beforeRounds),
                    settle ? "yes" : "no");
            String report = new GatewayReport(rounds, objects, size, threads, smallSeconds, heap)
                    .render(targets, argLine, setup + jit, (System.nanoTime() - started) / 1e9);
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
                EngineBenchmark.deleteTree(work);
            }
        }
    }

    /**
     * Writes back the page cache's dirty data before a phase, outside its timing ({@code --settle no}: not): otherwise
     * the kernel writes back the previous phase's files (the backend's objects, a PoR gateway's level files) while the
     * next target is timed.
     */
    private void settle() throws IOException, InterruptedException {
        if (settle && new ProcessBuilder("sync").inheritIO().start().waitFor() != 0) {
            throw new IOException("sync failed");
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
}

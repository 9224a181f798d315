package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.release.SoakClients.Kind;
import io.coffer.gateway.release.SoakClients.Sample;
import io.coffer.gateway.release.SoakClients.Workload;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out runs of issue 22 on the shipped launcher (not part of the suite: {@code benchmarks/gateway-bench.sh
 * soak|scale|gc} runs one; the name keeps surefire's default pattern from picking it up). Each starts the topology of
 * {@link SoakDeployment}: one PostgreSQL, one S3 backend (s3proxy), one key server, gateways from {@code ./coffer
 * serve}. The figures go to stdout and {@code target/soak/*.txt}; the assertions are on correctness only (no error, no
 * lost object, fsck clean, gateways alive without OutOfMemoryError), never on speed.
 *
 * <p>System properties: {@code coffer.soak.seconds} (600), {@code coffer.soak.clients} (32 per gateway);
 * {@code coffer.scale.seconds} (60 per gateway count), {@code coffer.scale.clients} (24 in all);
 * {@code coffer.gcload.seconds} (60 per phase), {@code coffer.gcload.clients} (12 per writing gateway).
 */
class MultiGatewaySoak {
    private static final Duration WARM_UP = Duration.ofSeconds(15);
    private static final String GC_GRACE = "60s";
    private static final Pattern BYTES_FREED = Pattern.compile("\"bytesFreed\"\\s*:\\s*(\\d+)");

    @TempDir
    Path scratch;

    @Test
    void threeGatewaysWithThirtyTwoClientsEachLoseNothingAndStayInTheirHeap() throws Exception {
        int seconds = Integer.getInteger("coffer.soak.seconds", 600);
        int perGateway = Integer.getInteger("coffer.soak.clients", 32);
        StringBuilder out = new StringBuilder();
        try (SoakDeployment d = SoakDeployment.start(scratch, 3)) {
            for (int i = 0; i < 3; i++) {
                d.addGateway(List.of());
            }
            List<URI> endpoints = endpoints(d.gateways());
            SoakClients.createBucket(endpoints.get(0));
            List<Duration> cpuBefore = cpu(d);
            try (HeapSampler heap = new HeapSampler(d);
                 SoakClients clients = new SoakClients("soak", endpoints, List.of(perGateway, perGateway,
                         perGateway), Workload.MIXED)) {
                long t0 = System.nanoTime();
                List<Sample> samples = clients.run(Duration.ofSeconds(seconds));
                double elapsed = (System.nanoTime() - t0) / 1e9;
                heap.stop();
                List<Duration> cpuAfter = cpu(d);
                out.append(String.format(Locale.ROOT, "soak: 3 gateways x %d clients, %d s (%.1f s measured), "
                                + "gateways -Xmx%s, s3proxy backend, PostgreSQL, key server%n", perGateway, seconds,
                        elapsed, SoakDeployment.HEAP));
                throughput(out, samples, elapsed, d, cpuBefore, cpuAfter);
                out.append(heap.report());
                out.append(keySourceFallbacks(d));
                List<String> wrong = clients.verifyEverywhere(endpoints);
                StockClients.Result fsck = d.fsck();
                out.append(String.format(Locale.ROOT, "errors=%d get-mismatches=%d (body not its ETag: %d) keys=%d "
                                + "verified-through=3 lost-or-wrong=%d fsck-exit=%d%n", clients.errorCount(),
                        clients.mismatches(), clients.etagMismatches(), clients.keys(), wrong.size(),
                        fsck.exitCode()));
                out.append(withoutOrphanLines(fsck.stdout()));
                clients.errors().forEach(e -> out.append("error: ").append(e).append('\n'));
                wrong.stream().limit(20).forEach(w -> out.append("wrong: ").append(w).append('\n'));
                write("soak-summary.txt", out);

                assertThat(clients.errors()).as("client errors (%d in all)", clients.errorCount()).isEmpty();
                assertThat(clients.mismatches()).isZero();
                assertThat(wrong).as("objects lost or wrong at the end").isEmpty();
                assertThat(samples).anyMatch(s -> s.kind() == Kind.PUT).anyMatch(s -> s.kind() == Kind.GET);
                assertHealthy(d, heap, fsck);
            }
        }
    }

    @Test
    void throughputWithOneTwoAndThreeGateways() throws Exception {
        int seconds = Integer.getInteger("coffer.scale.seconds", 60);
        int total = Integer.getInteger("coffer.scale.clients", 24);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "scale: %d clients in all, split evenly over"
                + " the gateways, %d s per gateway count after %d s of warm-up, gateways -Xmx%s%n", total, seconds,
                WARM_UP.toSeconds(), SoakDeployment.HEAP));
        try (SoakDeployment d = SoakDeployment.start(scratch, 3)) {
            List<SoakClients> runs = new ArrayList<>();
            for (int n = 1; n <= 3; n++) {
                d.addGateway(List.of());
                List<URI> endpoints = endpoints(d.gateways());
                if (n == 1) {
                    SoakClients.createBucket(endpoints.get(0));
                }
                List<Integer> split = new ArrayList<>(Collections.nCopies(n, total / n));
                SoakClients clients = new SoakClients("n" + n, endpoints, split, Workload.MIXED);
                runs.add(clients);
                clients.run(WARM_UP);
                List<Duration> cpuBefore = cpu(d);
                double load0 = SoakFigures.loadAverage();
                long t0 = System.nanoTime();
                List<Sample> samples = clients.run(Duration.ofSeconds(seconds));
                double elapsed = (System.nanoTime() - t0) / 1e9;
                List<Duration> cpuAfter = cpu(d);
                out.append(String.format(Locale.ROOT, "%n%d gateway(s), %d clients each, %.1f s, load average "
                        + "%.1f -> %.1f%n", n, total / n, elapsed, load0, SoakFigures.loadAverage()));
                throughput(out, samples, elapsed, d, cpuBefore, cpuAfter);
            }
            out.append(keySourceFallbacks(d));
            List<URI> all = endpoints(d.gateways());
            long errors = 0;
            List<String> wrong = new ArrayList<>();
            for (SoakClients c : runs) {
                errors += c.errorCount();
                wrong.addAll(c.verifyEverywhere(all));
                c.errors().forEach(e -> out.append("error: ").append(e).append('\n'));
                c.close();
            }
            out.append(String.format(Locale.ROOT, "errors=%d lost-or-wrong=%d%n", errors, wrong.size()));
            write("scale-summary.txt", out);
            assertThat(errors).isZero();
            assertThat(wrong).isEmpty();
        }
    }

    @Test
    void gcThroughTheAdminEndpointAndTheScheduleBesideOverwritingWritersLosesNothing() throws Exception {
        int seconds = Integer.getInteger("coffer.gcload.seconds", 60);
        int perGateway = Integer.getInteger("coffer.gcload.clients", 12);
        List<String> noSchedule = List.of("--gc-grace", GC_GRACE, "--gc-interval", "0");
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "gc under load: 2 writing gateways x %d "
                + "clients overwriting 64-256 KiB objects (half from 48 pooled contents), gc-grace %s, %d s "
                + "without gc, then %d s with POST /admin/gc in a loop on both (3 s apart) and a third gateway collecting "
                + "on its schedule (gc-interval 10s)%n", perGateway, GC_GRACE, seconds, seconds));
        try (SoakDeployment d = SoakDeployment.start(scratch, 3)) {
            ShippedGateway a = d.addGateway(noSchedule);
            ShippedGateway b = d.addGateway(noSchedule);
            List<URI> writers = endpoints(List.of(a, b));
            SoakClients.createBucket(writers.get(0));
            try (SoakClients clients = new SoakClients("gc", writers, List.of(perGateway, perGateway),
                    Workload.OVERWRITE)) {
                clients.run(WARM_UP);
                double load0 = SoakFigures.loadAverage();
                List<Sample> without = clients.run(Duration.ofSeconds(seconds));
                out.append(String.format(Locale.ROOT, "without gc (load average %.1f -> %.1f):%n  %s%n", load0,
                        SoakFigures.loadAverage(), SoakFigures.latency(without, Kind.PUT, s -> true, seconds)));

                ShippedGateway c = d.addGateway(List.of("--gc-grace", GC_GRACE, "--gc-interval", "10s"));
                AtomicBoolean stop = new AtomicBoolean();
                List<long[]> passes = Collections.synchronizedList(new ArrayList<>());
                CompletableFuture<int[]> loop = CompletableFuture.supplyAsync(() -> gcLoop(d, List.of(a, b), stop,
                        passes));
                double load1 = SoakFigures.loadAverage();
                List<Sample> with = clients.run(Duration.ofSeconds(seconds));
                stop.set(true);
                int[] statuses = loop.get();
                out.append(String.format(Locale.ROOT, "with gc (load average %.1f -> %.1f):%n  %s%n", load1,
                        SoakFigures.loadAverage(), SoakFigures.latency(with, Kind.PUT, s -> true, seconds)));
                out.append(String.format(Locale.ROOT, "  PUTs overlapping an admin pass: %s%n  PUTs overlapping"
                                + " none: %s%n",
                        SoakFigures.latency(with, Kind.PUT, s -> overlaps(s, passes), seconds),
                        SoakFigures.latency(with, Kind.PUT, s -> !overlaps(s, passes), seconds)));
                long adminFreed = passes.stream().mapToLong(p -> p[2]).sum();
                out.append(String.format(Locale.ROOT, "admin passes: %d completed (%d bytes freed), %d answered 409"
                        + " (lease held elsewhere), %d other%n", statuses[0], adminFreed, statuses[1], statuses[2]));
                for (ShippedGateway g : List.of(a, b, c)) {
                    String m = d.metrics(g);
                    out.append(String.format(Locale.ROOT, "gateway %d: coffer_gc_runs_total=%.0f "
                                    + "coffer_gc_freed_bytes_total=%.0f coffer_gc_lease_busy_total=%.0f%n",
                            d.gateways().indexOf(g) + 1, SoakDeployment.sum(m, "coffer_gc_runs_total", ""),
                            SoakDeployment.sum(m, "coffer_gc_freed_bytes_total", ""),
                            SoakDeployment.sum(m, "coffer_gc_lease_busy_total", "")));
                }
                out.append(keySourceFallbacks(d));
                String cMetrics = d.metrics(c);
                // a scheduled turn either collects or, while an admin pass holds the lease, is skipped (and counted)
                double scheduledTurns = SoakDeployment.sum(cMetrics, "coffer_gc_runs_total", "")
                        + SoakDeployment.sum(cMetrics, "coffer_gc_lease_busy_total", "");
                List<String> wrong = clients.verifyEverywhere(endpoints(d.gateways()));
                StockClients.Result fsck = d.fsck();
                out.append(String.format(Locale.ROOT, "errors=%d get-mismatches=%d (body not its ETag: %d) keys=%d "
                                + "lost-or-wrong=%d fsck-exit=%d%n", clients.errorCount(), clients.mismatches(),
                        clients.etagMismatches(), clients.keys(), wrong.size(), fsck.exitCode()));
                out.append(withoutOrphanLines(fsck.stdout()));
                clients.errors().forEach(e -> out.append("error: ").append(e).append('\n'));
                wrong.stream().limit(20).forEach(w -> out.append("wrong: ").append(w).append('\n'));
                write("gc-load-summary.txt", out);

                assertThat(clients.errors()).as("client errors (%d in all)", clients.errorCount()).isEmpty();
                assertThat(wrong).as("objects lost or wrong at the end").isEmpty();
                assertThat(statuses[0]).as("admin passes completed").isPositive();
                assertThat(statuses[2]).as("admin answers other than 200 and 409").isZero();
                assertThat(scheduledTurns).as("turns the third gateway's schedule took (collected or found the lease"
                        + " held)").isPositive();
                assertThat(fsck.exitCode()).as("fsck: %s%s", fsck.stdout(), fsck.stderr()).isZero();
                assertThat(fsck.stdout()).contains("damaged: 0").containsPattern("(?m)^clean$");
            }
        }
    }

    /**
     * POST /admin/gc on the gateways in turn, 3 s apart (room for the schedule's turns), until {@code stop}; each
     * completed pass goes to
     * {@code passes} as {start, end, bytesFreed}. Returns the count of 200, 409 and other answers.
     */
    private static int[] gcLoop(SoakDeployment d, List<ShippedGateway> on, AtomicBoolean stop, List<long[]> passes) {
        int[] statuses = new int[3];
        for (int i = 0; !stop.get(); i++) {
            try {
                long start = System.nanoTime();
                HttpResponse<String> r = d.collect(on.get(i % on.size()));
                long end = System.nanoTime();
                if (r.statusCode() == 200) {
                    statuses[0]++;
                    Matcher m = BYTES_FREED.matcher(r.body());
                    passes.add(new long[] {start, end, m.find() ? Long.parseLong(m.group(1)) : 0});
                } else if (r.statusCode() == 409) {
                    statuses[1]++;
                } else {
                    statuses[2]++;
                }
                Thread.sleep(3000);
            } catch (Exception e) {
                statuses[2]++;
            }
        }
        return statuses;
    }

    private static boolean overlaps(Sample s, List<long[]> passes) {
        synchronized (passes) {
            for (long[] p : passes) {
                if (s.start() < p[1] && s.start() + s.nanos() > p[0]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Ops and latency by kind, MB/s, and each gateway's requests and CPU per request over the run. */
    private static void throughput(StringBuilder out, List<Sample> samples, double elapsed, SoakDeployment d,
                                   List<Duration> cpuBefore, List<Duration> cpuAfter) {
        out.append(String.format(Locale.ROOT, "  %d ops, %.1f ops/s, %.1f MB/s%n", samples.size(),
                samples.size() / elapsed, SoakFigures.megabytesPerSecond(samples, elapsed)));
        for (Kind k : Kind.values()) {
            out.append("  ").append(SoakFigures.latency(samples, k, s -> true, elapsed)).append('\n');
        }
        double cpuAll = 0;
        long opsAll = 0;
        for (int g = 0; g < cpuAfter.size(); g++) {
            int gateway = g;
            long ops = samples.stream().filter(s -> s.gateway() == gateway).count();
            double cpuMs = cpuAfter.get(g).minus(cpuBefore.get(g)).toNanos() / 1e6;
            cpuAll += cpuMs;
            opsAll += ops;
            out.append(String.format(Locale.ROOT, "  gateway %d: %d requests, CPU %.1f s (%.0f %% of one core), "
                    + "%.2f ms CPU per request%n", g + 1, ops, cpuMs / 1000, cpuMs / 10 / elapsed,
                    ops == 0 ? 0 : cpuMs / ops));
        }
        out.append(String.format(Locale.ROOT, "  all gateways: %.2f ms CPU per request%n",
                opsAll == 0 ? 0 : cpuAll / opsAll));
    }

    /** Chunks each gateway encrypted under a random key because the key server did not answer in time. */
    private static String keySourceFallbacks(SoakDeployment d) throws Exception {
        StringBuilder sb = new StringBuilder("key-server fallbacks (chunks under random keys, no dedup):");
        for (ShippedGateway g : d.gateways()) {
            sb.append(String.format(Locale.ROOT, " %.0f", SoakDeployment.sum(d.metrics(g),
                    "coffer_keysource_fallbacks_total", "")));
        }
        return sb.append('\n').toString();
    }

    private static void assertHealthy(SoakDeployment d, HeapSampler heap, StockClients.Result fsck) {
        for (ShippedGateway g : d.gateways()) {
            assertThat(g.isAlive()).isTrue();
            assertThat(g.output()).doesNotContain("OutOfMemoryError");
        }
        assertThat(heap.failure()).as("heap sampling").isNull();
        assertThat(heap.samples()).isPositive();
        assertThat(fsck.exitCode()).as("fsck: %s%s", fsck.stdout(), fsck.stderr()).isZero();
        assertThat(fsck.stdout()).contains("damaged: 0").containsPattern("(?m)^clean$");
    }

    /** fsck's report without its one line per orphan (garbage gc collects; the count stays). */
    private static String withoutOrphanLines(String report) {
        StringBuilder sb = new StringBuilder();
        report.lines().filter(l -> !l.startsWith("orphan ")).forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
    }

    private static List<Duration> cpu(SoakDeployment d) {
        return d.gateways().stream().map(d::cpu).toList();
    }

    private static List<URI> endpoints(List<ShippedGateway> gateways) {
        return gateways.stream().map(ShippedGateway::endpoint).toList();
    }

    private static void write(String name, StringBuilder out) throws Exception {
        System.out.println(out);
        Path dir = Files.createDirectories(Path.of("target", "soak"));
        Files.writeString(dir.resolve(name), out, StandardCharsets.UTF_8);
    }
}

package io.coffer.benchmarks.keyserver;

import static io.coffer.benchmarks.keyserver.LoadReport.pct;

import io.coffer.keyserver.client.Exchange;
import io.coffer.keyserver.wire.EvaluationRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** Part b: closed-loop saturation, a fixed number of client threads each with one query in flight, single and batched, OPRFv1 and OPRFv2. */
final class ClosedLoop {
    private final PrintStream out;
    private final PrimitiveRates primitives;
    private final double closedSeconds;
    private final double closedWarmup;
    private final int threads;
    private final int batch;
    private final int timeoutMs;
    /** OPRFv2 batch-1 evaluations/s, by key name. */
    private final Map<String, Double> closedV2Single = new LinkedHashMap<>();

    ClosedLoop(KeyServerLoad options, PrimitiveRates primitives) {
        this.out = options.out;
        this.primitives = primitives;
        this.closedSeconds = options.closedSeconds;
        this.closedWarmup = options.closedWarmup;
        this.threads = options.threads;
        this.batch = options.batch;
        this.timeoutMs = options.timeoutMs;
    }

    void run(List<LoadTarget> targets) throws Exception {
        out.println("## (b) closed loop: " + threads + " client threads, each one query in flight; " + closedWarmup + " s warm-up, "
                + closedSeconds + " s measured");
        out.println();
        out.println(LoadReport.CPU_COLUMNS);
        out.println();
        out.println("ratio per JVM core: evaluations/s / (JVM cores x the 1-core raw rate), i.e. the share of the CPU this JVM got"
                + " that went into OPRF evaluations (the rest: transport, load generator, GC, JIT); per server core: the same over the"
                + " server's threads only (the rest: the server's transport and hand-offs)");
        out.println();
        out.println("| key | transport | batch | queries/s | evaluations/s | p50 ms | p99 ms | lost | raw limit (2 cores) | ratio "
                + "| JVM cores | server cores | load gen cores | JIT+GC cores | other cores | ratio per JVM core | per server core |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (LoadTarget t : targets) {
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

    /** The OPRFv2 batch-1 evaluations/s measured for a key, or null if part b did not run it. */
    Double v2Single(String key) {
        return closedV2Single.get(key);
    }

    private void closedLoop(LoadTarget t, String transport, int n) throws Exception {
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
                        boolean ok = Queries.query(conn, req, n);
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
        double raw = 2 * primitives.rawFor(t, n);
        if (transport.equals("v2") && n == 1) {
            closedV2Single.put(t.name, eps);
        }
        out.printf(Locale.ROOT, "| %s | %s | %d | %,.0f | %,.0f | %.2f | %.2f | %d | %,.0f | %.0f%% | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f%% | %.0f%% |%n",
                t.label(), transport, n, queries.get() / secs, eps, pct(all, 50), pct(all, 99), lost.get(), raw, 100 * eps / raw, use.jvmCores,
                use.serverCores, use.loadCores, use.jitGcCores, use.otherCores, 100 * eps / (use.jvmCores * raw / 2), 100 * eps / (use.serverCores * raw / 2));
    }
}

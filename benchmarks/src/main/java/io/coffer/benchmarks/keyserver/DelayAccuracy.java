package io.coffer.benchmarks.keyserver;

import static io.coffer.benchmarks.keyserver.LoadReport.pct;

import io.coffer.keyserver.client.Exchange;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.wire.EvaluationRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/** Part e: how close the fixed and exponential rate-limit delays land to their configuration, with several clients at once. */
final class DelayAccuracy {
    private final PrintStream out;
    private final int delayClients;
    private final List<Integer> fixedDelaysMs;
    private final double fixedSeconds;
    private final List<Integer> expDelayMs;
    private final int expRounds;
    private final int timeoutMs;

    DelayAccuracy(KeyServerLoad options) {
        this.out = options.out;
        this.delayClients = options.delayClients;
        this.fixedDelaysMs = options.fixedDelaysMs;
        this.fixedSeconds = options.fixedSeconds;
        this.expDelayMs = options.expDelayMs;
        this.expRounds = options.expRounds;
        this.timeoutMs = options.timeoutMs;
    }

    /** The "delays within 10% of configured", measured: fixed delays on both transports, exponential on OPRFv2. */
    void run(LoadTarget t) throws Exception {
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
    private DelayRun delayRun(LoadTarget t, KeyServer server, List<String> ids, String transport, long[] plan, int rounds, long pauseNanos)
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
                            boolean ok = Queries.query(conn, req, 1);
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
}

package io.coffer.benchmarks.keyserver;

import static io.coffer.benchmarks.keyserver.LoadReport.pct;

import io.coffer.keyserver.client.HttpsExchange;
import io.coffer.keyserver.wire.DatagramFrame;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.SessionGrant;
import io.coffer.keyserver.wire.Status;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Part c: the DupLESS paper's Figure 4 open-loop sweep on OPRFv2, batch 1: steps of rising offered rates, each query
 * sent on schedule whatever the answers, many datagrams in flight on one session.
 */
final class Figure4 {
    private final PrintStream out;
    private final PrimitiveRates primitives;
    private final int fig4Steps;
    private final int fig4RateStep;
    private final List<Integer> fig4Rates;
    private final double fig4StepSeconds;
    private final int fig4Queries;
    private final int fig4StopAfter;
    private final int fig4WarmupSeconds;
    private final boolean fig4Extend;
    private final int timeoutMs;
    private final Map<String, Fig4Result> fig4Results = new LinkedHashMap<>();

    Figure4(KeyServerLoad options, PrimitiveRates primitives) {
        this.out = options.out;
        this.primitives = primitives;
        this.fig4Steps = options.fig4Steps;
        this.fig4RateStep = options.fig4RateStep;
        this.fig4Rates = options.fig4Rates;
        this.fig4StepSeconds = options.fig4StepSeconds;
        this.fig4Queries = options.fig4Queries;
        this.fig4StopAfter = options.fig4StopAfter;
        this.fig4WarmupSeconds = options.fig4WarmupSeconds;
        this.fig4Extend = options.fig4Extend;
        this.timeoutMs = options.timeoutMs;
    }

    /** What the sweep found for a key, or null if part c did not run it. */
    Fig4Result result(String key) {
        return fig4Results.get(key);
    }

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
    static final class Fig4Result {
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

    void run(LoadTarget t) throws Exception {
        out.println("## (c) Figure 4 sweep, " + t.label() + ", OPRFv2, batch 1, open loop");
        out.println();
        out.println("offered " + (fig4Rates != null ? "rates " + fig4Rates : fig4RateStep + "*i") + " queries/s, each query one fresh random blinded element, "
                + "sent on schedule whatever the answers; "
                + "answered = valid OK answer within " + timeoutMs + " ms; goodput = answered / (first send to last answer)");
        out.println();
        out.println(LoadReport.CPU_COLUMNS);
        out.println();
        Fig4Result res = new Fig4Result();
        fig4Results.put(t.name, res);
        try (HttpsExchange init = t.client("bench", t.server).timeout(KeyServerLoad.HTTP_TIMEOUT).openHttpsExchange();
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
                double raw = 2 * primitives.rawFor(t, 1);
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
    private double[] step(LoadTarget t, HttpsExchange init, DatagramSocket socket, Step[] current, AtomicLong lastReceive, AtomicLong errors,
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
}

package io.coffer.gateway.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every 2 s, each gateway's heap in use and live data after its last old-generation collection (from /metrics:
 * {@code jvm_memory_used_bytes{area="heap"}}, {@code jvm_gc_live_data_size_bytes}) and the machine's load average.
 * The report gives, per gateway, the highest of each in every third of the run: a heap that grows without bound
 * shows as a rising live set from third to third.
 */
final class HeapSampler implements AutoCloseable {
    private static final int THIRDS = 3;

    /** One round of samples: when, the load average, and per gateway heap used and live data. */
    private record Round(long nanos, double load, long[] heap, long[] live) {
    }

    private final SoakDeployment deployment;
    private final List<ShippedGateway> gateways;
    private final List<Round> rounds = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "heap-sampler");
        t.setDaemon(true);
        return t;
    });

    HeapSampler(SoakDeployment deployment) {
        this.deployment = deployment;
        this.gateways = deployment.gateways();
        timer.scheduleAtFixedRate(this::sample, 0, 2, TimeUnit.SECONDS);
    }

    private void sample() {
        try {
            long[] heap = new long[gateways.size()];
            long[] live = new long[gateways.size()];
            for (int g = 0; g < gateways.size(); g++) {
                String m = deployment.metrics(gateways.get(g));
                heap[g] = (long) SoakDeployment.sum(m, "jvm_memory_used_bytes", "area=\"heap\"");
                live[g] = (long) SoakDeployment.sum(m, "jvm_gc_live_data_size_bytes", "");
            }
            synchronized (rounds) {
                rounds.add(new Round(System.nanoTime(), SoakFigures.loadAverage(), heap, live));
            }
        } catch (Exception e) {
            failure.compareAndSet(null, e);
        }
    }

    void stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(30, TimeUnit.SECONDS);
    }

    int samples() {
        synchronized (rounds) {
            return rounds.size();
        }
    }

    Throwable failure() {
        return failure.get();
    }

    String report() {
        List<Round> all;
        synchronized (rounds) {
            all = List.copyOf(rounds);
        }
        if (all.isEmpty()) {
            return "heap: no samples\n";
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "heap: %d samples every 2 s; per third of "
                + "the run, the highest heap in use / live data after old-generation GC, MiB%n", all.size()));
        long first = all.get(0).nanos();
        long span = Math.max(1, all.get(all.size() - 1).nanos() - first);
        for (int g = 0; g < gateways.size(); g++) {
            sb.append(String.format(Locale.ROOT, "  gateway %d:", g + 1));
            for (int t = 0; t < THIRDS; t++) {
                long heap = 0;
                long live = 0;
                for (Round r : all) {
                    int third = (int) Math.min(THIRDS - 1, (r.nanos() - first) * THIRDS / span);
                    if (third == t) {
                        heap = Math.max(heap, r.heap()[g]);
                        live = Math.max(live, r.live()[g]);
                    }
                }
                sb.append(String.format(Locale.ROOT, "  %d / %d", heap >> 20, live >> 20));
            }
            sb.append('\n');
        }
        double minLoad = all.stream().mapToDouble(Round::load).min().orElse(-1);
        double maxLoad = all.stream().mapToDouble(Round::load).max().orElse(-1);
        double meanLoad = all.stream().mapToDouble(Round::load).average().orElse(-1);
        sb.append(String.format(Locale.ROOT, "load average (1 min) during the run: mean %.1f, min %.1f, max %.1f%n",
                meanLoad, minLoad, maxLoad));
        return sb.toString();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}

package io.coffer.benchmarks.keyserver;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Part d, the summary against the targets, and what the report says about the machine and its CPU use. */
final class LoadReport {
    static final String CPU_COLUMNS = "JVM cores: CPU used by this JVM / wall time, split into server cores (the key server's threads),"
            + " load gen cores (the load generator's threads) and JIT+GC cores (compiler and garbage-collector threads); other cores: CPU used by"
            + " everything else on the machine (other tenants), from /proc/stat";

    private final PrintStream out;
    private final int fig4RateStep;
    private final PrimitiveRates primitives;
    private final ClosedLoop closedLoop;
    private final Figure4 figure4;

    LoadReport(KeyServerLoad options, PrimitiveRates primitives, ClosedLoop closedLoop, Figure4 figure4) {
        this.out = options.out;
        this.fig4RateStep = options.fig4RateStep;
        this.primitives = primitives;
        this.closedLoop = closedLoop;
        this.figure4 = figure4;
    }

    void summary(List<LoadTarget> targets, int cores) {
        out.println("## (d) summary");
        out.println();
        out.println("| key | raw limit: 2 x 1-thread evaluations/s | v2 closed-loop saturation | ratio | Fig. 4 saturation goodput | ratio "
                + "| target >= 80% | no loss below 90% of saturation | p99 at ~half saturation | target p99 < 5 ms |");
        out.println("|---|---:|---:|---:|---:|---:|---|---|---:|---|");
        for (LoadTarget t : targets) {
            double raw = 2 * primitives.rawFor(t, 1);
            Double closed = closedLoop.v2Single(t.name);
            Figure4.Fig4Result f = figure4.result(t.name);
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
        Figure4.Fig4Result r1024 = figure4.result("rsa1024");
        if (r1024 != null) {
            out.println();
            out.printf(Locale.ROOT, "RSA-1024 vs DupLESS (paper: ~3,000 queries/s without loss on OPRFv2): highest offered rate with no loss here %,d/s, "
                    + "saturation goodput %,.0f/s (%d cores shared with the load generator)%n", r1024.highestLossless, r1024.saturation, cores);
        }
    }

    /** The p-th percentile of sorted nanoseconds, in ms (NaN if empty). */
    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
    }

    static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}

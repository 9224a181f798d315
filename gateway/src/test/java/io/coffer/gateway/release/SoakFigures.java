package io.coffer.gateway.release;

import io.coffer.gateway.release.SoakClients.Kind;
import io.coffer.gateway.release.SoakClients.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** Percentiles and rates over the soak clients' samples, and the machine's load average. */
final class SoakFigures {
    private SoakFigures() {
    }

    /** "count, ops/s, p50/p99/max ms" of the samples of {@code kind} that pass {@code filter}. */
    static String latency(List<Sample> samples, Kind kind, Predicate<Sample> filter, double seconds) {
        long[] ns = samples.stream().filter(s -> s.kind() == kind).filter(filter).mapToLong(Sample::nanos).sorted()
                .toArray();
        if (ns.length == 0) {
            return String.format(Locale.ROOT, "%-6s none", kind);
        }
        return String.format(Locale.ROOT, "%-6s %7d ops %8.1f ops/s  p50 %7.1f ms  p99 %8.1f ms  max %8.1f ms", kind,
                ns.length, ns.length / seconds, pct(ns, 50) / 1e6, pct(ns, 99) / 1e6, ns[ns.length - 1] / 1e6);
    }

    static long p99(List<Sample> samples, Kind kind, Predicate<Sample> filter) {
        long[] ns = samples.stream().filter(s -> s.kind() == kind).filter(filter).mapToLong(Sample::nanos).sorted()
                .toArray();
        return ns.length == 0 ? -1 : pct(ns, 99);
    }

    static double megabytesPerSecond(List<Sample> samples, double seconds) {
        return samples.stream().mapToLong(Sample::bytes).sum() / 1e6 / seconds;
    }

    static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** The 1-minute load average from /proc/loadavg, or -1 where there is none. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}

package io.coffer.benchmarks.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The run's results as Markdown: the machine and parameters, a table of medians [min-max] per target with Coffer's
 * ratios to the others, server CPU per unit of work, and Coffer/direct against the targets and aims.
 */
final class GatewayReport {
    private final int rounds;
    private final int objects;
    private final int size;
    private final int threads;
    private final int smallSeconds;
    private final String heap;

    GatewayReport(int rounds, int objects, int size, int threads, int smallSeconds, String heap) {
        this.rounds = rounds;
        this.objects = objects;
        this.size = size;
        this.threads = threads;
        this.smallSeconds = smallSeconds;
        this.heap = heap;
    }

    /** {@code ts}: direct, relay, Coffer and s3proxy-enc, in that order; {@code setup}: lines on how the run went. */
    String render(List<Target> ts, String argLine, String setup, double seconds) {
        Target d = ts.get(0);
        Target l = ts.get(1);
        Target c = ts.get(2);
        Target e = ts.get(3);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "GatewayBenchmark %s%n", argLine.isEmpty() ? "(defaults)" : argLine));
        sb.append(String.format(Locale.ROOT, "machine: %d CPUs (%s), %s %s, server JVMs -Xmx%s; run took %.0f s%n",
                Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), heap, seconds));
        sb.append(String.format(Locale.ROOT, "rounds=%d, %d x %d MiB objects per round and target (single stream), "
                        + "4 KiB: %d threads x %d s per phase; medians over all samples/rounds, [min-max]%n",
                rounds, objects, size >> 20, threads, smallSeconds));
        sb.append(setup);
        sb.append('\n');
        sb.append("| metric | direct | relay | Coffer | s3proxy-enc | Coffer/direct | Coffer/relay "
                + "| Coffer/s3proxy-enc |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (String m : List.of("put", "get", "sput", "sget", "sputp50", "sputp99", "sgetp50", "sgetp99", "dedup")) {
            // ops/s rows whole numbers, MB/s and ms one decimal
            row(sb, label(m), pick(d, m), pick(l, m), pick(c, m), pick(e, m), m.equals("sput") || m.equals("sget")
                    ? 0 : 1);
        }
        sb.append('\n');
        sb.append("Server CPU per unit of work (CPU time of every server process the path goes through: direct = "
                + "backend; relay = relay + backend; Coffer = gateway + backend; s3proxy-enc = proxy + backend):\n\n");
        sb.append("| work | direct | relay | Coffer | s3proxy-enc |\n|---|---|---|---|---|\n");
        for (String[] m : new String[][] {{"put-large", "PUT large, CPU ms/MB"}, {"get-large", "GET large, CPU ms/MB"},
            {"put-small", "PUT 4 KiB, CPU ms/op"}, {"get-small", "GET 4 KiB, CPU ms/op"},
            {"put-dedup", "dedup PUT, CPU ms/MB"}}) {
            sb.append("| ").append(m[1]);
            for (Target t : ts.subList(0, 4)) {
                double[] acc = t.cpu.get(m[0]);
                sb.append(" | ").append(acc == null || acc[1] == 0 ? "-"
                        : String.format(Locale.ROOT, "%.2f", acc[0] * 1000 / acc[1]));
            }
            sb.append(" |\n");
        }
        sb.append('\n');
        String[][] measures = {{"large PUT", "put"}, {"large GET", "get"}, {"4 KiB PUT", "sput"}, {"4 KiB GET", "sget"}};
        double[][] targetsAndAims = {{0.60, 0.85}, {0.60, 0.85}, {0.50, 0.70}, {0.50, 0.70}};
        for (int i = 0; i < measures.length; i++) {
            String m = measures[i][1];
            double ratio = median(pick(c, m)) / median(pick(d, m));
            double min = targetsAndAims[i][0];
            double aim = targetsAndAims[i][1];
            List<Double> paired = perRoundRatios(pick(c, m), pick(d, m), m.startsWith("s") ? 1 : objects);
            sb.append(String.format(Locale.ROOT, "- %s Coffer/direct = %.0f%% (target >= %.0f%%, aim %.0f%%): %s; "
                            + "round by round %.0f%% [%.0f-%.0f%%]; the bare relay reached %.0f%% of direct, Coffer "
                            + "%.0f%% of the relay%n", measures[i][0],
                    ratio * 100, min * 100, aim * 100, ratio >= aim ? "MET (aim reached)" : ratio >= min ? "MET"
                            : "MISSED", median(paired) * 100, paired.stream().min(Double::compare).orElse(Double.NaN)
                            * 100, paired.stream().max(Double::compare).orElse(Double.NaN) * 100,
                    median(pick(l, m)) / median(pick(d, m)) * 100, median(pick(c, m)) / median(pick(l, m)) * 100));
        }
        sb.append("(Round by round: Coffer's median over direct's within each measured round, both measured minutes "
                + "apart; the median and range of those ratios show how much of a run's ratio is the machine drifting "
                + "between rounds.)\n");
        for (String[] m : measures) {
            double ratio = median(pick(c, m[1])) / median(pick(e, m[1]));
            sb.append(String.format(Locale.ROOT, "- Coffer vs s3proxy-enc, %s: %.2fx -> %s%n", m[0], ratio,
                    ratio > 1 ? "Coffer faster" : "s3proxy-enc faster"));
        }
        if (ts.size() > 4) {
            porSection(sb, c, ts.get(4));
        }
        return sb.toString();
    }

    /** Coffer with proofs of retrievability ({@code p}) beside Coffer without ({@code c}), same run, same backend. */
    private void porSection(StringBuilder sb, Target c, Target p) {
        String server = p.servers.size() > 2 ? "a `coffer por-server` in a process of its own, on the same machine"
                : "an embedded PoR server";
        sb.append("\nProofs of retrievability (coffer-por: the same gateway with " + server + "; issue 19's"
                + " targets PUT >= 70 %, GET >= 90 % of PoR off):\n\n");
        sb.append("| metric | Coffer, PoR off | Coffer, PoR on | on/off | round by round | target |\n");
        sb.append("|---|---|---|---|---|---|\n");
        String[][] measures = {{"put", "0.70"}, {"get", "0.90"}, {"sput", "-"}, {"sget", "-"}};
        for (String[] m : measures) {
            List<Double> on = pick(p, m[0]);
            List<Double> off = pick(c, m[0]);
            double ratio = median(on) / median(off);
            List<Double> paired = perRoundRatios(on, off, m[0].startsWith("s") ? 1 : objects);
            int decimals = m[0].startsWith("s") ? 0 : 1;
            String target = m[1].equals("-") ? "-" : String.format(Locale.ROOT, ">= %.0f %%: %s",
                    Double.parseDouble(m[1]) * 100, ratio >= Double.parseDouble(m[1]) ? "MET" : "MISSED");
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %.2f [%.2f-%.2f] | %s |%n", label(m[0]),
                    cell(off, decimals), cell(on, decimals), ratio, median(paired),
                    paired.stream().min(Double::compare).orElse(Double.NaN),
                    paired.stream().max(Double::compare).orElse(Double.NaN), target));
        }
        for (String[] w : new String[][] {{"put-large", "PUT large, server CPU ms/MB"},
            {"get-large", "GET large, server CPU ms/MB"},
            {"put-large-front", "PUT large, the gateway process alone (no backend, no separate PoR server), CPU ms/MB"},
            {"get-large-front", "GET large, the gateway process alone, CPU ms/MB"}}) {
            double[] off = c.cpu.get(w[0]);
            double[] on = p.cpu.get(w[0]);
            if (off != null && on != null && off[1] > 0 && on[1] > 0) {
                sb.append(String.format(Locale.ROOT, "- %s: PoR off %.2f, PoR on %.2f%n", w[1], off[0] * 1000 / off[1],
                        on[0] * 1000 / on[1]));
            }
        }
    }

    private String label(String m) {
        return switch (m) {
            case "put" -> "PUT " + (size >> 20) + " MiB, MB/s";
            case "get" -> "GET " + (size >> 20) + " MiB, MB/s";
            case "sput" -> "PUT 4 KiB, ops/s (" + threads + " threads)";
            case "sget" -> "GET 4 KiB, ops/s (" + threads + " threads)";
            case "sputp50" -> "PUT 4 KiB p50 ms";
            case "sputp99" -> "PUT 4 KiB p99 ms";
            case "sgetp50" -> "GET 4 KiB p50 ms";
            case "sgetp99" -> "GET 4 KiB p99 ms";
            default -> "dedup row (NOT fresh data): PUT of one identical " + (size >> 20) + " MiB body, repeated, MB/s";
        };
    }

    /**
     * Per measured round, median of {@code c}'s samples over median of {@code d}'s; each round adds {@code perRound}
     * samples to both lists, in round order.
     */
    private List<Double> perRoundRatios(List<Double> c, List<Double> d, int perRound) {
        List<Double> ratios = new ArrayList<>();
        if (perRound <= 0) {
            return ratios; // that measurement was not run (e.g. --objects 0)
        }
        for (int r = 0; (r + 1) * perRound <= Math.min(c.size(), d.size()); r++) {
            ratios.add(median(c.subList(r * perRound, (r + 1) * perRound))
                    / median(d.subList(r * perRound, (r + 1) * perRound)));
        }
        return ratios;
    }

    private static List<Double> pick(Target t, String m) {
        return switch (m) {
            case "put" -> t.putMBps;
            case "get" -> t.getMBps;
            case "sput" -> t.smallPutOps;
            case "sget" -> t.smallGetOps;
            case "sputp50" -> t.smallPutP50;
            case "sputp99" -> t.smallPutP99;
            case "sgetp50" -> t.smallGetP50;
            case "sgetp99" -> t.smallGetP99;
            case "dedup" -> t.dedupPutMBps;
            default -> throw new IllegalArgumentException(m);
        };
    }

    private static void row(StringBuilder sb, String label, List<Double> d, List<Double> l, List<Double> c,
                            List<Double> e, int decimals) {
        sb.append("| ").append(label);
        for (List<Double> v : List.of(d, l, c, e)) {
            sb.append(" | ").append(cell(v, decimals));
        }
        for (List<Double> base : List.of(d, l, e)) {
            sb.append(" | ").append(String.format(Locale.ROOT, "%.2f", median(c) / median(base)));
        }
        sb.append(" |\n");
    }

    private static String cell(List<Double> v, int decimals) {
        if (v.isEmpty()) {
            return "-";
        }
        String f = "%." + decimals + "f";
        return String.format(Locale.ROOT, f + " [" + f + "-" + f + "]", median(v), v.stream().min(Double::compare)
                .orElseThrow(), v.stream().max(Double::compare).orElseThrow());
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse(System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }
}

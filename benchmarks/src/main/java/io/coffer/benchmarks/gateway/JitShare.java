package io.coffer.benchmarks.gateway;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Per server JVM: CPU seconds of its JIT compiler threads and of the whole process. */
record JitShare(Map<String, double[]> byServer) {
    static JitShare of(List<ServerProcess> servers) {
        Map<String, double[]> m = new LinkedHashMap<>();
        for (ServerProcess p : servers) {
            m.put(p.name(), new double[] {p.jitCpuSeconds(), p.cpuSeconds()});
        }
        return new JitShare(m);
    }

    JitShare since(JitShare before) {
        Map<String, double[]> m = new LinkedHashMap<>();
        byServer.forEach((name, now) -> {
            double[] then = before.byServer.get(name);
            m.put(name, new double[] {now[0] - then[0], now[1] - then[1]});
        });
        return new JitShare(m);
    }

    /** The largest share of a server's CPU that went to its JIT compilers. */
    double max() {
        return byServer.values().stream().mapToDouble(v -> v[1] > 0 ? v[0] / v[1] : 0).max().orElse(0);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        byServer.forEach((name, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                "%s %.1f %%", name, v[1] > 0 ? 100 * v[0] / v[1] : 0)));
        return sb.toString();
    }
}

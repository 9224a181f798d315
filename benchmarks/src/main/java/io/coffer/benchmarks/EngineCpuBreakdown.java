package io.coffer.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.JceWarmup;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the CPU of a large PUT and GET goes, per thread group: the caller's thread (chunking, SHA-256, keys, AES-CTR
 * on PUT; waiting and copying on GET), {@code coffer-md5} (the ETag digest), {@code coffer-io} (pack uploads with
 * their fsyncs on PUT; reads, AES-CTR and SHA-256 verification on GET) and the rest of the JVM (GC, JIT). CPU time is
 * far less sensitive to other load on a shared machine than wall time, so it shows what the engine costs per byte
 * even when the wall-clock ratios are noisy.
 *
 * <p>Usage: {@code EngineCpuBreakdown [ROUNDS] [directory|memory] [COMPRESSION] [random|text]} (default 5 rounds,
 * directory backend, compression on, random bytes): after {@link JceWarmup} and one unmeasured round, each round PUTs
 * 256 MiB into a fresh embedded store and GETs it back; prints one line per operation and the medians. Run: {@code
 * benchmarks/run.sh cpu}.
 */
public final class EngineCpuBreakdown {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private EngineCpuBreakdown() {
    }

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String backend = args.length > 1 ? args[1] : "directory";
        boolean compression = args.length <= 2 || Boolean.parseBoolean(args[2]);
        String kind = args.length > 3 ? args[3] : "random";
        JceWarmup.run();
        byte[] data = Data.of(kind, EngineBenchmark.LARGE, 21);
        System.out.println("compression " + compression + ", data " + kind + ", backend " + backend);
        byte[] buf = new byte[1 << 20];
        Map<String, List<Double>> medians = new TreeMap<>();
        long packBytes = 0;
        System.out.println("| op | round | wall s | MiB/s | process CPU s | caller | coffer-md5 | coffer-io | other "
                + "(GC, JIT, ...) |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int round = 0; round <= rounds; round++) {
            Path dir = Files.createTempDirectory("coffer-cpu");
            try (Coffer coffer = EngineBenchmark.openStore(dir, backend, compression)) {
                Snapshot s0 = Snapshot.take();
                long t0 = System.nanoTime();
                coffer.putObject(PutObjectRequest.of(EngineBenchmark.BUCKET, "large", data.length),
                        new ByteArrayInputStream(data));
                long t1 = System.nanoTime();
                Snapshot s1 = Snapshot.take();
                try (ObjectContent c = coffer.getObject(EngineBenchmark.BUCKET, "large")) {
                    EngineBenchmark.drain(c.stream(), buf);
                }
                long t2 = System.nanoTime();
                Snapshot s2 = Snapshot.take();
                packBytes = coffer.stats().packBytes();
                if (round > 0) {
                    print("PUT", round, t1 - t0, s0, s1, medians);
                    print("GET", round, t2 - t1, s1, s2, medians);
                }
            } finally {
                EngineBenchmark.deleteTree(dir);
            }
        }
        System.out.printf(Locale.ROOT, "%nstored: %d pack bytes for %d bytes (%.1f %%)%n%n", packBytes, data.length,
                100.0 * packBytes / data.length);
        System.out.println("| median over rounds | value |");
        System.out.println("|---|---:|");
        for (Map.Entry<String, List<Double>> e : medians.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "| %s | %.3f |%n", e.getKey(), JmhSummary.percentile(v, 0.5));
        }
    }

    private static void print(String op, int round, long wallNanos, Snapshot a, Snapshot b,
                              Map<String, List<Double>> medians) {
        double wall = wallNanos / 1e9;
        double process = (b.process - a.process) / 1e9;
        double caller = b.group("main") - a.group("main");
        double md5 = b.group("coffer-md5") - a.group("coffer-md5");
        double io = b.group("coffer-io") - a.group("coffer-io");
        double other = process - caller - md5 - io;
        double mibs = EngineBenchmark.LARGE_MIB / wall;
        System.out.printf(Locale.ROOT, "| %s | %d | %.3f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f |%n", op, round,
                wall, mibs, process, caller, md5, io, other);
        medians.computeIfAbsent(op + " MiB/s", k -> new ArrayList<>()).add(mibs);
        medians.computeIfAbsent(op + " process CPU s", k -> new ArrayList<>()).add(process);
        medians.computeIfAbsent(op + " caller CPU s", k -> new ArrayList<>()).add(caller);
        medians.computeIfAbsent(op + " coffer-md5 CPU s", k -> new ArrayList<>()).add(md5);
        medians.computeIfAbsent(op + " coffer-io CPU s", k -> new ArrayList<>()).add(io);
        medians.computeIfAbsent(op + " other CPU s", k -> new ArrayList<>()).add(other);
    }

    /** Process CPU time and the CPU time of every live thread, by name without its "-N" suffix. */
    private record Snapshot(long process, Map<Long, Long> cpu, Map<Long, String> names) {
        static Snapshot take() {
            Map<Long, Long> cpu = new TreeMap<>();
            Map<Long, String> names = new TreeMap<>();
            for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
                if (t == null) {
                    continue;
                }
                long c = THREADS.getThreadCpuTime(t.getThreadId());
                if (c >= 0) {
                    cpu.put(t.getThreadId(), c);
                    names.put(t.getThreadId(), t.getThreadName().replaceAll("-\\d+$", ""));
                }
            }
            return new Snapshot(OS.getProcessCpuTime(), cpu, names);
        }

        /** CPU seconds of the threads in a group (threads seen in this snapshot). */
        double group(String name) {
            long sum = 0;
            for (Map.Entry<Long, String> e : names.entrySet()) {
                if (e.getValue().equals(name)) {
                    sum += cpu.get(e.getKey());
                }
            }
            return sum / 1e9;
        }
    }
}

package io.coffer.benchmarks.keyserver;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU accounting: this JVM's CPU time, split into the key server's threads, the JIT compiler and garbage collector
 * threads, and the rest (the load generator: it is all that runs besides them), and the whole machine's busy time
 * (/proc/stat). Per-thread times come from /proc/self/task/TID/schedstat (nanoseconds on a CPU).
 */
final class Cpu {
    final long wall;
    final long process;
    final long server;
    final long jitGc;
    final long busyJiffies;
    final long totalJiffies;

    private Cpu(long wall, long process, long server, long jitGc, long busy, long total) {
        this.wall = wall;
        this.process = process;
        this.server = server;
        this.jitGc = jitGc;
        this.busyJiffies = busy;
        this.totalJiffies = total;
    }

    /** {server, JIT + GC} nanoseconds on a CPU of the threads alive now, by thread name (the kernel keeps 15 characters). */
    private static long[] threadTimes() {
        long server = 0, jitGc = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String name = Files.readString(t.resolve("comm")).trim();
                    boolean isServer = name.startsWith("ks-") && !name.startsWith("ks-client");
                    boolean isJitGc = name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre") || name.startsWith("GC Thread")
                            || name.startsWith("G1 ") || name.equals("VM Thread");
                    if (isServer || isJitGc) {
                        long ns = Long.parseLong(Files.readString(t.resolve("schedstat")).trim().split(" ")[0]);
                        if (isServer) {
                            server += ns;
                        } else {
                            jitGc += ns;
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return new long[] {-1, -1};
        }
        return new long[] {server, jitGc};
    }

    static Cpu now() {
        long busy = 0, total = 0;
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            for (int i = 1; i < f.length && i <= 8; i++) {
                long v = Long.parseLong(f[i]);
                total += v;
                if (i != 4 && i != 5) {
                    busy += v;
                }
            }
        } catch (IOException | RuntimeException e) {
            busy = total = 0;
        }
        long[] threads = threadTimes();
        long process = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        return new Cpu(System.nanoTime(), process, threads[0], threads[1], busy, total);
    }

    /** Cores used on average since {@code before}. */
    static final class Use {
        final double jvmCores;
        final double otherCores;
        /** The key server's threads (ks-io, ks-eval, ks-accept, ks-delay). */
        final double serverCores;
        /** JIT compiler and GC threads. */
        final double jitGcCores;
        /** The rest of the JVM: the load generator's threads (and threads that ended during the window). */
        final double loadCores;

        Use(double jvm, double other, double server, double jitGc) {
            this.jvmCores = jvm;
            this.otherCores = other;
            this.serverCores = server;
            this.jitGcCores = jitGc;
            this.loadCores = Math.max(0, jvm - server - jitGc);
        }
    }

    Use since(Cpu before) {
        double wallNs = Math.max(1, wall - before.wall);
        double jvm = (process - before.process) / wallNs;
        long dt = totalJiffies - before.totalJiffies;
        double machine = dt <= 0 ? Double.NaN : (double) (busyJiffies - before.busyJiffies) / dt * Runtime.getRuntime().availableProcessors();
        boolean threads = server >= 0 && before.server >= 0;
        return new Use(jvm, Double.isNaN(machine) ? Double.NaN : Math.max(0, machine - jvm), threads ? (server - before.server) / wallNs : Double.NaN,
                threads ? (jitGc - before.jitGc) / wallNs : Double.NaN);
    }
}

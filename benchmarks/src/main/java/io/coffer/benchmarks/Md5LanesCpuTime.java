package io.coffer.benchmarks;

import io.coffer.sdk.digest.BodyDigest;
import io.coffer.sdk.digest.Md5Lanes;
import io.coffer.sdk.engine.Md5Tap;
import java.lang.management.ManagementFactory;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The MD5 of several bodies at once ({@link Md5Lanes}) against one digest thread per body ({@link Md5Tap}, the engine's
 * path without the Vector API), in the process's CPU time: B bodies of 64 MiB fed at once by B threads in reads of
 * 16-64 KiB through a reused 1 MiB window (released before it is overwritten, as the chunk reader does). Every round
 * runs each way once, the order alternating, so a shared machine disturbs both alike; prints the median MiB digested
 * per CPU-second of the whole process (feeding included) for each B.
 *
 * <p>Run: {@code java --add-modules jdk.incubator.vector -cp CLASSPATH io.coffer.benchmarks.Md5LanesCpuTime
 * [MEASURED_ROUNDS] [WARMUP_ROUNDS] [BODIES...]} (defaults 7, 3, bodies 1 2 4 8 16).
 */
public final class Md5LanesCpuTime {
    private static final int BODY = 64 << 20;
    private static final int WINDOW = 1 << 20;
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private Md5LanesCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        int measured = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int[] bodies = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {1, 2, 4, 8, 16};
        Md5Lanes lanes = Md5Lanes.createIfSupported(r -> {
            Thread t = new Thread(r, "md5-lanes");
            t.setDaemon(true);
            return t;
        });
        if (lanes == null) {
            System.err.println("the Vector API is not usable here: start with --add-modules jdk.incubator.vector");
            System.exit(2);
        }
        byte[] data = Data.random(BODY, 1);
        System.out.printf("MD5 of B bodies of %d MiB at once, %d measured rounds after %d warm-up rounds,"
                + " MiB per CPU-second of the process (medians, min-max)%n", BODY >> 20, measured, warmup);
        System.out.println("| bodies at once | a digest thread per body (Md5Tap) | lanes | lanes/Md5Tap |");
        System.out.println("|---:|---:|---:|---:|");
        ExecutorService pool = Executors.newCachedThreadPool();
        ExecutorService digestThreads = Executors.newCachedThreadPool();
        try {
            for (int b : bodies) {
                List<Double> jdk = new ArrayList<>();
                List<Double> lane = new ArrayList<>();
                for (int round = 0; round < warmup + measured; round++) {
                    for (int side = 0; side < 2; side++) {
                        boolean lanesSide = (side + round) % 2 == 0;
                        double rate = run(pool, b, data, lanesSide ? lanes : null, digestThreads);
                        if (round >= warmup) {
                            (lanesSide ? lane : jdk).add(rate);
                        }
                    }
                }
                System.out.printf("| %d | %s | %s | %.2f |%n", b, cell(jdk), cell(lane), median(lane) / median(jdk));
            }
        } finally {
            pool.shutdownNow();
            digestThreads.shutdownNow();
            lanes.close();
        }
        System.out.printf("machine: %d processors, %s, %s %s%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.arch"), System.getProperty("java.vm.name"), System.getProperty("java.version"));
    }

    /** Digests {@code bodies} copies of {@code data} at once; returns MiB per CPU-second of the process. */
    private static double run(ExecutorService pool, int bodies, byte[] data, Md5Lanes lanes,
            ExecutorService digestThreads) throws Exception {
        byte[] expected = MessageDigest.getInstance("MD5").digest(data);
        long cpu0 = OS.getProcessCpuTime();
        List<Future<byte[]>> digests = new ArrayList<>();
        for (int i = 0; i < bodies; i++) {
            int seed = i;
            digests.add(pool.submit(() -> feed(data, seed, lanes != null ? lanes.open() : new Md5Tap(digestThreads))));
        }
        for (Future<byte[]> f : digests) {
            if (!MessageDigest.isEqual(f.get(), expected)) {
                throw new IllegalStateException("wrong digest");
            }
        }
        long cpu = OS.getProcessCpuTime() - cpu0;
        return (double) bodies * (BODY >> 20) / (cpu / 1e9);
    }

    /** One reader: the body through a window, in reads of 16-64 KiB. */
    private static byte[] feed(byte[] data, int seed, BodyDigest digest) throws Exception {
        byte[] window = new byte[WINDOW];
        int fill = 0;
        long windowStart = 0;
        Random random = new Random(seed);
        for (int at = 0; at < data.length; ) {
            int n = Math.min(data.length - at, (16 << 10) + random.nextInt(48 << 10));
            if (fill + n > WINDOW) {
                digest.release(windowStart + fill);
                windowStart += fill;
                fill = 0;
            }
            System.arraycopy(data, at, window, fill, n);
            digest.read(window, fill, n);
            fill += n;
            at += n;
        }
        return digest.finish();
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        return s.get(s.size() / 2);
    }

    private static String cell(List<Double> xs) {
        return String.format("%.0f [%.0f-%.0f]", median(xs), xs.stream().mapToDouble(d -> d).min().orElse(0),
                xs.stream().mapToDouble(d -> d).max().orElse(0));
    }
}

package io.coffer.benchmarks;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers' PUT latency with and without garbage collection running beside them (issue 22): each run opens a fresh
 * embedded engine (directory backend, SQLite) with a short grace period, lets {@code WRITERS} threads put, overwrite
 * and delete 256 KiB objects drawn from a small pool of contents (so chunks die and are reused) for {@code SECONDS},
 * and, in the second run, collects garbage in a loop meanwhile. Prints p50/p99/max PUT latency, PUTs done, and the
 * passes and bytes freed.
 *
 * <p>{@code java -cp ... io.coffer.benchmarks.GcUnderLoad [SECONDS] [WRITERS]} (defaults 30, 4).
 */
public final class GcUnderLoad {
    private static final int SIZE = 256 << 10;
    private static final int CONTENTS = 24;
    private static final int KEYS_PER_WRITER = 6;
    private static final Duration GRACE = Duration.ofSeconds(5);

    private GcUnderLoad() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int writers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        byte[][] contents = new byte[CONTENTS][];
        for (int i = 0; i < CONTENTS; i++) {
            contents[i] = Data.random(SIZE, i);
        }
        run("without gc", false, seconds, writers, contents);
        run("with gc", true, seconds, writers, contents);
    }

    private static void run(String name, boolean collect, int seconds, int writers, byte[][] contents)
            throws Exception {
        Path dir = Files.createTempDirectory("coffer-gc-under-load");
        try (Coffer coffer = Coffer.builder().directory(dir).gcGrace(GRACE).build()) {
            coffer.createBucket("bkt", "bench");
            AtomicBoolean stop = new AtomicBoolean();
            List<long[]> latencies = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            AtomicLong errors = new AtomicLong();
            for (int w = 0; w < writers; w++) {
                long[] nanos = new long[1 << 20];
                latencies.add(nanos);
                int writer = w;
                threads.add(new Thread(() -> write(coffer, writer, contents, nanos, stop, errors)));
            }
            AtomicLong freed = new AtomicLong();
            AtomicLong passes = new AtomicLong();
            if (collect) {
                threads.add(new Thread(() -> {
                    while (!stop.get()) {
                        GcReport r = coffer.collectGarbage();
                        freed.addAndGet(r.bytesFreed());
                        passes.incrementAndGet();
                        sleep(500);
                    }
                }));
            }
            threads.forEach(Thread::start);
            sleep(seconds * 1000L);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            long[] all = latencies.stream().flatMapToLong(a -> Arrays.stream(a).filter(n -> n > 0)).sorted()
                    .toArray();
            System.out.printf(Locale.ROOT, "%-10s  puts %6d  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  gc passes %4d"
                            + "  freed %8.1f MiB  failed writes %d%n", name, all.length, ms(all, 0.50), ms(all, 0.99),
                    all[all.length - 1] / 1e6, passes.get(), freed.get() / 1048576.0, errors.get());
        } finally {
            deleteTree(dir);
        }
    }

    /** Latency of each PUT into {@code nanos} (a slot per PUT, 0 for a delete). */
    private static void write(Coffer coffer, int writer, byte[][] contents, long[] nanos, AtomicBoolean stop,
                              AtomicLong errors) {
        Random random = new Random(writer);
        int n = 0;
        while (!stop.get() && n < nanos.length) {
            String key = "w" + writer + "-" + random.nextInt(KEYS_PER_WRITER);
            try {
                if (random.nextInt(10) < 3) {
                    coffer.deleteObject("bkt", key);
                    continue;
                }
                byte[] body = contents[random.nextInt(contents.length)];
                long start = System.nanoTime();
                coffer.putObject(PutObjectRequest.of("bkt", key, body.length), new ByteArrayInputStream(body));
                nanos[n++] = System.nanoTime() - start;
            } catch (RuntimeException e) {
                errors.incrementAndGet();
            }
        }
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

package io.coffer.benchmarks.por;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.store.DirectoryStorage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * HAdd over the embedded server's level files alone: the H of {@link DirectoryStorage} in the gateway's shape (2^16
 * blocks of 64 KiB, batches of 2^4, so H has k = 12 and 1.1 MB vectors), {@code ADDS} adds of random batch vectors on
 * one thread, then a force; twice (the second pass rewrites files the first one made, as a store in use does).
 * Prints thread CPU milliseconds per MB of block data (the butterflies, the level I/O through the page cache, the
 * cache of the smallest levels) and wall MB/s. Without the checksums, the journal and the client: the part of a PoR
 * PUT that issue 19's porio round changed.
 *
 * <p>Usage: {@code PorHAddIo [ADDS] [DIR]} (127: levels 0..6; a temporary directory).
 */
public final class PorHAddIo {
    private static final int K = 16;
    private static final int BATCH = 4;
    private static final int BLOCK = 64 << 10;

    private PorHAddIo() {}

    public static void main(String[] args) throws Exception {
        int adds = args.length > 0 ? Integer.parseInt(args[0]) : 127;
        Path parent = args.length > 1 ? Path.of(args[1]) : Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = Files.createTempDirectory(parent, "por-hadd");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (DirectoryStorage storage = DirectoryStorage.open(dir, K, BATCH, BLOCK, Segments.count(BLOCK) + 1)) {
            LevelStore h = storage.hVectors();
            HierarchicalLog log = new HierarchicalLog(new CodeParameters(K - BATCH), h, LogState.empty(K - BATCH));
            SplittableRandom random = new SplittableRandom(1);
            int[] vector = new int[h.width()];
            double mb = adds * (double) (BLOCK << BATCH) / 1e6;
            for (int pass = 1; pass <= 2; pass++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                for (int i = 0; i < adds; i++) {
                    for (int j = 0; j < vector.length; j++) {
                        vector[j] = random.nextInt(1 << 30);
                    }
                    log.add(vector);
                }
                storage.force();
                double cpuMs = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
                double wallS = (System.nanoTime() - wall0) / 1e9;
                System.out.printf("pass %d: %d adds, %.2f ms CPU per MB, %.1f MB/s wall, load %.1f%n", pass, adds,
                        cpuMs / mb, mb / wallS, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
                log.newEpoch();
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}

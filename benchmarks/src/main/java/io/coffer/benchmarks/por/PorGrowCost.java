package io.coffer.benchmarks.por;

import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.JournaledPorServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * What a grow of the PoR store costs (appendix A.3, docs/POR.md "Resizing") against the writes it makes room for: the
 * embedded server in files ({@link JournaledPorServer}, 4 KiB blocks unless {@code --block-size} says otherwise (the
 * gateway's default is 64 KiB), batches of 2^4) and its client in this thread,
 * every one of the 2^k blocks written and flushed, then {@code grow(k + 1)}; prints the writes' and the grow's wall and
 * thread CPU milliseconds (client and server both run in this thread) and the grow's CPU per block of new capacity,
 * beside the writes' CPU per block. With {@code shrink} first, a shrink (consolidation) instead: a store of 2^(k+1)
 * blocks, a quarter of them written below 2^k and a quarter above it deleted again (written as zero), then
 * {@code shrink(k)}: U's 2^(k+1) checksums checked, C rebuilt at k on both sides, U cut.
 *
 * <p>Usage: {@code PorGrowCost [shrink] [--block-size BYTES] [k...]} (10 12 13).
 */
public final class PorGrowCost {
    private static final int BATCH = 4;

    private PorGrowCost() {}

    public static void main(String[] args) throws Exception {
        boolean shrink = false;
        int blockBytes = 4096;
        List<String> ks = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "shrink" -> shrink = true;
                case "--block-size" -> blockBytes = Integer.parseInt(args[++i]);
                default -> ks.add(args[i]);
            }
        }
        if (ks.isEmpty()) {
            ks = List.of("10", "12", "13");
        }
        for (String k : ks) {
            if (shrink) {
                measureShrink(Integer.parseInt(k), blockBytes);
            } else {
                measure(Integer.parseInt(k), blockBytes);
            }
        }
    }

    private static void measureShrink(int k, int blockBytes) throws Exception {
        Path dir = Files.createTempDirectory("por-shrink").toAbsolutePath();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(k + 1, BATCH, blockBytes))) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            PorClient client = PorClient.initialize(server, key, new SecureRandom(), s -> { });
            Random random = new Random(k);
            byte[] block = new byte[blockBytes];
            int quarter = 1 << (k - 1);
            long cpu = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < quarter; i++) {
                random.nextBytes(block);
                client.write(i, block);
                client.write((1 << k) + i, block);
            }
            for (int i = 0; i < quarter; i++) {
                client.write((1 << k) + i, new byte[blockBytes]);
            }
            client.flush();
            double writeCpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6 / (3 * quarter);

            cpu = threads.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            client.shrink(k);
            double wallMs = (System.nanoTime() - wall) / 1e6;
            double cpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
            int removed = 1 << k;
            System.out.printf("k %d -> %d, %d-byte blocks, batches of 2^%d: writes %.3f ms CPU per block; shrink %.0f"
                    + " ms wall, %.0f ms thread CPU (%.3f ms CPU per block of capacity removed, %.2f of a write's);"
                    + " load %.1f%n", k + 1, k, blockBytes, BATCH, writeCpuMs, wallMs, cpuMs, cpuMs / removed,
                    (cpuMs / removed) / writeCpuMs, loadAverage());
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void measure(int k, int blockBytes) throws Exception {
        Path dir = Files.createTempDirectory("por-grow").toAbsolutePath();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(k, BATCH, blockBytes))) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            PorClient client = PorClient.initialize(server, key, new SecureRandom(), s -> { });
            Random random = new Random(k);
            byte[] block = new byte[blockBytes];
            long cpu = threads.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            for (int i = 0; i < 1 << k; i++) {
                random.nextBytes(block);
                client.write(i, block);
            }
            client.flush();
            double writeWallMs = (System.nanoTime() - wall) / 1e6;
            double writeCpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;

            cpu = threads.getCurrentThreadCpuTime();
            wall = System.nanoTime();
            client.grow(k + 1);
            double growWallMs = (System.nanoTime() - wall) / 1e6;
            double growCpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
            int added = 1 << k;
            System.out.printf("k %d -> %d, %d-byte blocks, batches of 2^%d: %d writes %.0f ms wall, %.0f ms thread CPU"
                    + " (%.3f ms CPU per block); grow %.0f ms wall, %.0f ms thread CPU (%.3f ms CPU per block of new"
                    + " capacity, %.2f of a write's); load %.1f%n", k, k + 1, blockBytes, BATCH, added, writeWallMs,
                    writeCpuMs, writeCpuMs / added, growWallMs, growCpuMs, growCpuMs / added,
                    (growCpuMs / added) / (writeCpuMs / added), loadAverage());
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}

package io.coffer.benchmarks.por;

import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.por.store.JournaledPorServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The wall time of each H add over one epoch, client and server in process on the calling thread: the embedded
 * server's files ({@link JournaledPorServer}), 2^K blocks, b = 0 (every write is an add), 1 KiB blocks so that an
 * epoch at K = 14 fits a shared machine. A first epoch warms the JIT up; over the second it prints the median, the
 * 99th percentile and the largest add (and which one) of the first 2^K - 1 writes (the last one also rebuilds C,
 * printed apart), in wall and thread CPU milliseconds. With HAdd the add that fills level l rebuilds 2 * 2^l vectors; deamortised, every add does at most two
 * butterflies per level. Uses only the API main and the deamortised branch share, so main's {@code por} classes first
 * on the class path measure HAdd (or, since the files server paces C's rebuild, the one-shot rebuild in files). H's levels in memory: as {@code -Dcoffer.por.levels-memory-mib} says.
 * {@code -Dcoffer.por.memory=true} runs the in-memory server ({@link MemoryPorServer}) instead: the adds' coding and
 * checksum work without the files and the journal's forces, with C's rebuild paced over the next epoch's first half;
 * {@code -Dcoffer.por.memory=oneshot} the in-memory server that rebuilds C at once at the epoch's end (paired A/B).
 *
 * <p>Usage: {@code PorAddLatency [K] [BLOCK_BYTES]} (14, 1024).
 */
public final class PorAddLatency {
    private PorAddLatency() {}

    public static void main(String[] args) throws Exception {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 14;
        int blockBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Path dir = Files.createTempDirectory("por-add");
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Random random = new Random(1);
        byte[] block = new byte[blockBytes];
        int n = 1 << k;
        String memory = System.getProperty("coffer.por.memory", "false");
        boolean oneShot = memory.equals("oneshot");
        boolean inMemory = oneShot || Boolean.parseBoolean(memory);
        try (JournaledPorServer files = inMemory ? null
                : JournaledPorServer.open(dir, new ServerParameters(k, 0, blockBytes))) {
            PorServer server = !inMemory ? files : oneShot ? MemoryPorServer.oneShot(k, 0, blockBytes)
                    : new MemoryPorServer(k, 0, blockBytes);
            PorClient client = PorClient.initialize(server, key, new SecureRandom(), s -> { });
            for (int i = 0; i < n; i++) { // the first epoch, unmeasured
                random.nextBytes(block);
                client.write(random.nextInt(n), block);
            }
            String label = !inMemory ? "files" : oneShot ? "in memory, C at once" : "in memory, C paced";
            double[] wall = new double[n - 1];
            double[] cpu = new double[n - 1];
            for (int i = 0; i < n; i++) {
                random.nextBytes(block);
                long wall0 = System.nanoTime();
                long cpu0 = threads.getCurrentThreadCpuTime();
                client.write(random.nextInt(n), block);
                double w = (System.nanoTime() - wall0) / 1e6;
                double c = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
                if (i < n - 1) {
                    wall[i] = w;
                    cpu[i] = c;
                } else {
                    // at once the epoch's last write also rebuilds C; paced it freezes H and opens the window
                    System.out.printf("k = %d, %d-byte blocks, %s: the epoch's last write (add and %s)"
                            + " %.1f ms wall, %.1f ms CPU%n", k, blockBytes, label,
                            oneShot ? "C rebuild" : "freeze", w, c);
                }
            }
            int worst = 0;
            int busiest = 0;
            for (int i = 1; i < wall.length; i++) {
                worst = wall[i] > wall[worst] ? i : worst;
                busiest = cpu[i] > cpu[busiest] ? i : busiest;
            }
            double worstCpu = cpu[worst];
            System.out.printf("the add with the most CPU: %.1f ms CPU (%.1f wall) at add %d%n", cpu[busiest],
                    wall[busiest], busiest + 1);
            double total = Arrays.stream(wall).sum();
            Arrays.sort(wall);
            Arrays.sort(cpu);
            System.out.printf("adds 1..%d: median %.3f ms wall (%.3f CPU), p99 %.3f (%.3f), largest %.1f ms wall"
                    + " (%.1f CPU) at add %d; all %.0f ms wall%n", n - 1, wall[wall.length / 2], cpu[cpu.length / 2],
                    wall[wall.length * 99 / 100], cpu[cpu.length * 99 / 100], wall[wall.length - 1], worstCpu,
                    worst + 1, total);
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

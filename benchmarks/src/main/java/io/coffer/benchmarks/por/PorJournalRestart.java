package io.coffer.benchmarks.por;

import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.JournaledPorServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * What a restart of the journaled server costs after kill -9: a child JVM opens the embedded server's files
 * ({@link JournaledPorServer}, 2^16 blocks of 64 KiB, batches of 2^4, the default memory budget), writes {@code B}
 * batches and flushes, and is killed with SIGKILL; then this process opens the directory, which replays the journal's
 * window into H's levels in memory and redoes the calls after the checkpoint, and prints the open's wall and thread
 * CPU milliseconds and the journal's size. Run it with the heap of the server it stands for (the budget of levels in
 * memory is an eighth of it).
 *
 * <p>Usage: {@code PorJournalRestart [B...]} (100 130).
 */
public final class PorJournalRestart {
    private static final int BATCH = 4;
    private static final String CHILD = "--child";

    private PorJournalRestart() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals(CHILD)) {
            write(Path.of(args[1]), Integer.parseInt(args[2]));
            return;
        }
        List<String> batches = args.length == 0 ? List.of("100", "130") : List.of(args);
        for (String b : batches) {
            measure(Integer.parseInt(b));
        }
    }

    private static void measure(int batches) throws Exception {
        Path dir = Files.createTempDirectory("por-restart").toAbsolutePath();
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java));
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), PorJournalRestart.class.getName(),
                    CHILD, dir.toString(), Integer.toString(batches)));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null && !line.equals("written")) {
                    System.out.println("child: " + line);
                }
            }
            child.destroyForcibly().waitFor(); // SIGKILL: nothing closed, spilled or checkpointed
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpu = threads.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
                double wallMs = (System.nanoTime() - wall) / 1e6;
                double cpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
                System.out.printf("%d batches of 2^%d blocks of 64 KiB, %d levels in memory, log %s: open after kill"
                        + " -9 %.0f ms wall, %.0f ms thread CPU; journal %.1f MiB in %d segments; load %.1f%n",
                        batches, BATCH, server.storage().memoryLevels(), server.state(), wallMs, cpuMs,
                        server.journalBytes() / 1048576.0, segments(dir), loadAverage());
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The child: writes {@code batches} batches of random blocks, flushes, says so and waits to be killed. */
    private static void write(Path dir, int batches) throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Random random = new Random(1);
        byte[] block = new byte[64 << 10];
        JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(16, BATCH, 64 << 10));
        PorClient client = PorClient.initialize(server, key, new SecureRandom(), s -> { });
        for (int i = 0; i < batches << BATCH; i++) {
            random.nextBytes(block);
            client.write(i, block);
        }
        client.flush();
        System.out.println("written");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    private static long segments(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("journal-")).count();
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}

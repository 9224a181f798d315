package io.coffer.benchmarks.por;

import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
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
 * What a padded early flush costs per batch exponent b: with the embedded server's files ({@link JournaledPorServer},
 * 2^16 blocks of 64 KiB, 2^b blocks per H add, in process), 256 blocks are written (full batches: warm-up), then 24
 * times one block and a {@link PorClient#flush} that pads its batch with 2^b - 1 zero blocks; prints the median and
 * the largest flush in wall and thread CPU milliseconds (client and server run on the calling thread). The gateway's
 * PoR store flushes after every pack, so this is the cost a pack pays for the padding of its last batch.
 *
 * <p>Usage: {@code PorFlushLatency [B...]} (4 5 6).
 */
public final class PorFlushLatency {
    private static final int FLUSHES = 24;

    private PorFlushLatency() {}

    public static void main(String[] args) throws Exception {
        int[] exponents = args.length == 0 ? new int[] {4, 5, 6}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        for (int b : exponents) {
            measure(b);
        }
    }

    private static void measure(int b) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Path dir = Files.createTempDirectory("por-flush");
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Random random = new Random(1);
        byte[] block = new byte[64 << 10];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(16, b, 64 << 10))) {
            PorClient client = PorClient.initialize(server, key, new SecureRandom(), s -> { });
            int index = 0;
            for (int i = 0; i < 256; i++) {
                random.nextBytes(block);
                client.write(index++, block);
            }
            double[] wall = new double[FLUSHES];
            double[] cpu = new double[FLUSHES];
            for (int i = 0; i < FLUSHES; i++) {
                random.nextBytes(block);
                client.write(index++, block);
                long wall0 = System.nanoTime();
                long cpu0 = threads.getCurrentThreadCpuTime();
                client.flush();
                wall[i] = (System.nanoTime() - wall0) / 1e6;
                cpu[i] = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
            }
            Arrays.sort(wall);
            Arrays.sort(cpu);
            System.out.printf("b = %d: flush of 1 block + %d zero blocks: median %.0f ms wall, %.0f ms thread CPU;"
                    + " largest %.0f / %.0f ms%n", b, (1 << b) - 1, wall[FLUSHES / 2], cpu[FLUSHES / 2],
                    wall[FLUSHES - 1], cpu[FLUSHES - 1]);
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

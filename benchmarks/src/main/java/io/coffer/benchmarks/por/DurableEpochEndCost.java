package io.coffer.benchmarks.por;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.client.PorClient;
import io.coffer.por.client.Traffic;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.PorServer;
import io.coffer.por.store.JournaledPorServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The client's CPU and bytes in the write that ends an epoch with the durable server ({@link JournaledPorServer} in a
 * temporary directory, client and server in process on the calling thread), its part of C's rebuild at once against
 * paced (issue 19, cpacefiles). "at once" is the server as before: a proxy answers PACES_PART with no, so the client
 * sends REBUILD_C with all of C's sealed checksums after downloading U's, as it does with a server that does not pace
 * its part; "paced" is the server as it is (PACES_PART yes): REBUILD_C_PACED at the epoch's end, the part spread over
 * the window's writes. Each round runs both, alternating which goes first, over a new directory each: 2^K writes of
 * random blocks at random indices (the epoch that ends), then the window's writes to its switch (the same count at
 * once, where they carry no part: what the part adds to a write). The client's
 * CPU of a call is the thread's CPU over the call less what it spent inside the server's methods (the proxy times
 * them); bytes are the client's own count ({@link PorClient#traffic}: checksums, proofs and C's sealed checksums, not
 * the blocks), and the part's alone in the window (the proxy counts SNAPSHOT_U's and NEXT_SEALED_C's checksums). The
 * window's writes are timed in wall time too, server included, and the NEXT_SEALED_C calls apart (each forces
 * {@code c.next.sealed} before its answer).
 *
 * <p>Usage: {@code DurableEpochEndCost ROUNDS K B BLOCK_BYTES} (e.g. {@code 3 16 0 64}).
 */
public final class DurableEpochEndCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private DurableEpochEndCost() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int k = Integer.parseInt(args[1]);
        int b = Integer.parseInt(args[2]);
        int blockBytes = Integer.parseInt(args[3]);
        System.out.printf(Locale.ROOT, "k = %d, b = %d, blocks of %d bytes%n", k, b, blockBytes);
        for (int round = -1; round < rounds; round++) { // round -1 warms the JIT up, not printed
            boolean pacedFirst = round % 2 != 0;
            String first = run(k, b, blockBytes, pacedFirst, round);
            String second = run(k, b, blockBytes, !pacedFirst, round);
            if (round >= 0) {
                System.out.println("round " + round + " " + first);
                System.out.println("round " + round + " " + second);
            }
        }
    }

    private static String run(int k, int b, int blockBytes, boolean paced, long seed) throws Exception {
        Path dir = Files.createTempDirectory("por-epoch-end");
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(k, b, blockBytes))) {
            // CPU in the server, the part's bytes down and up, NEXT_SEALED_C's calls and their wall time
            long[] inServer = new long[5];
            PorServer timed = timed(server, inServer, paced);
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            PorClient client = PorClient.initialize(timed, key, new SecureRandom(), s -> { });
            SplittableRandom random = new SplittableRandom(seed);
            int n = 1 << k;
            for (int i = 0; i < n - 1; i++) {
                client.write(random.nextInt(n), block(random, blockBytes));
            }
            Traffic traffic = client.traffic();
            traffic.reset();
            long endWall0 = System.nanoTime();
            long cpu = clientCpu(() -> client.write(random.nextInt(n), block(random, blockBytes)), inServer);
            long endWall = System.nanoTime() - endWall0;
            if (client.state().hLog().t() != 0) {
                throw new IllegalStateException("the measured write did not end the epoch");
            }
            String end = String.format(Locale.ROOT, "%-8s epoch's end: client cpu %.1f ms, down %.2f MiB, up %.2f MiB,"
                    + " wall %.1f ms (server included)", paced ? "paced" : "at once", cpu / 1e6,
                    traffic.overheadDown() / 1048576.0, traffic.overheadUp() / 1048576.0, endWall / 1e6);
            int count = PacedCRebuild.addsToSwitch(k, b) << b;
            long[] calls = new long[count];
            long[] walls = new long[count];
            long worstBytes = 0;
            Arrays.fill(inServer, 1, inServer.length, 0);
            for (int i = 0; i < count; i++) {
                traffic.reset();
                long wall0 = System.nanoTime();
                calls[i] = clientCpu(() -> client.write(random.nextInt(n), block(random, blockBytes)), inServer);
                walls[i] = System.nanoTime() - wall0;
                worstBytes = Math.max(worstBytes, traffic.overhead());
            }
            if (client.state().clientPartPending()) {
                throw new IllegalStateException("the part did not end before the switch");
            }
            long[] sorted = calls.clone();
            Arrays.sort(sorted);
            Arrays.sort(walls);
            return end + String.format(Locale.ROOT, " | the window's %d writes: client cpu median %.1f us, p99 %.1f"
                    + " us, max %.1f us, at most %d bytes a write; the part's checksums %.2f MiB down, %.2f MiB up;"
                    + " wall a write (server included) median %.1f us, p99 %.1f us, max %.1f ms, in all %.2f s; %d"
                    + " NEXT_SEALED_C, %.2f s of wall in them",
                    count, sorted[count / 2] / 1e3, sorted[(int) (count * 0.99)] / 1e3, sorted[count - 1] / 1e3,
                    worstBytes, inServer[1] / 1048576.0, inServer[2] / 1048576.0, walls[count / 2] / 1e3,
                    walls[(int) (count * 0.99)] / 1e3, walls[count - 1] / 1e6, Arrays.stream(walls).sum() / 1e9,
                    inServer[3], inServer[4] / 1e9);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** The thread's CPU over {@code call} less what it spent in the server's methods. */
    private static long clientCpu(Runnable call, long[] inServer) {
        long server0 = inServer[0];
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        call.run();
        return THREADS.getCurrentThreadCpuTime() - cpu0 - (inServer[0] - server0);
    }

    /**
     * {@code server} with the thread CPU of its methods added to {@code inServer[0]}, the snapshot's bytes to [1],
     * the uploaded part's to [2], NEXT_SEALED_C's calls to [3] and their wall time to [4]; PACES_PART no unless paced.
     */
    private static PorServer timed(PorServer server, long[] inServer, boolean paced) {
        return (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(), new Class<?>[] {PorServer.class},
                (p, method, args) -> {
                    if (!paced && method.getName().equals("pacesClientPart")) {
                        return false; // the server as before cpacefiles: the client's part at the epoch's end
                    }
                    long cpu0 = THREADS.getCurrentThreadCpuTime();
                    long wall0 = System.nanoTime();
                    try {
                        Object answer = method.invoke(server, args);
                        if (method.getName().equals("snapshotSealedU")) {
                            for (Object sealed : (List<?>) answer) {
                                inServer[1] += sealed == null ? 0 : ((byte[]) sealed).length;
                            }
                        } else if (method.getName().equals("putNextSealedC")) {
                            inServer[2] += 2L * ((byte[][]) args[1]).length * ChecksumSealer.SEALED_BYTES;
                            inServer[3]++;
                            inServer[4] += System.nanoTime() - wall0;
                        }
                        return answer;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        inServer[0] += THREADS.getCurrentThreadCpuTime() - cpu0;
                    }
                });
    }

    private static byte[] block(SplittableRandom random, int blockBytes) {
        byte[] block = new byte[blockBytes];
        random.nextBytes(block);
        return block;
    }
}

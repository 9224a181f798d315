package io.coffer.benchmarks.por;

import io.coffer.por.blob.PorBlobStore;
import io.coffer.por.net.PorKeyFile;
import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.ReconnectingPorServer;
import io.coffer.por.net.RemotePorServer;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.PorServer;
import io.coffer.por.store.JournaledPorServer;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The gateway's pack store with PoR on beside PoR off, without the gateway around it: the engine's shape of pack I/O
 * (8 MiB packs put by 2 threads, as {@code ObjectWriter.UPLOADS_IN_FLIGHT}; read back in 1 MiB {@code readInto}
 * ranges by 4 threads, as the read-ahead does) against a {@link DirectoryBlobStore} alone ("off") and a
 * {@link PorBlobStore} over the same kind of store with the embedded server's files ({@link JournaledPorServer},
 * 2^16 blocks of 64 KiB, batches of 2^4: what {@code serve --por embedded} builds) and SQLite for the block map
 * ("on"). Rounds alternate off and on; each prints wall MB/s and the process's CPU milliseconds per MB (which load
 * from other processes distorts less than wall time). Run under JFR to see where PoR's CPU goes.
 *
 * <p>Usage: {@code PorStoreLoad [ROUNDS] [PACKS] [PACK_MIB] [DIR]} (3, 8, 8, a temporary directory); the batch
 * exponent b (2^b blocks per H add) is {@code -Dcoffer.por.batch=B} (4, the gateway's default {@code por-batch}).
 * Deletes (zero blocks written into the freed indices, appendix A.3) are timed too. {@code -Dcoffer.por.getThreads=N}
 * reads with N threads instead of 4 (1: a single stream, as one large GET reads); {@code -Dcoffer.por.getRepeats=N}
 * reads each round's packs N times (a GET phase long enough to profile). {@code -Dcoffer.por.remote=true}
 * serves the same server through a {@link PorNetServer} on 127.0.0.1 in this process and has the store talk to it
 * over the network protocol ({@link ReconnectingPorServer}, as {@code serve --por HOST:PORT} does): the difference
 * to the embedded run is the protocol's cost; the threads named {@code por-server} and {@code nioEventLoopGroup-*}
 * are the server's side, the rest the gateway's.
 */
public final class PorStoreLoad {
    private static final int PUT_THREADS = 2;
    /** Readers at once: 4 as the read-ahead does; {@code -Dcoffer.por.getThreads=1} times one stream alone. */
    private static final int GET_THREADS = Integer.getInteger("coffer.por.getThreads", 4);
    /** Bytes per {@code readInto}: 1 MiB, or {@code -Dcoffer.por.getRangeMib=N} (the engine reads runs of 4-8 MiB). */
    private static final int RANGE = Integer.getInteger("coffer.por.getRangeMib", 1) << 20;
    /** Reads of each round's packs: more than 1 times the GET path long enough to profile it. */
    private static final int GET_REPEATS = Integer.getInteger("coffer.por.getRepeats", 1);

    private PorStoreLoad() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int packs = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int packBytes = (args.length > 2 ? Integer.parseInt(args[2]) : 8) << 20;
        Path root = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("por-store-load");
        byte[][] contents = new byte[packs][packBytes];
        Random random = new Random(1);
        for (byte[] c : contents) {
            random.nextBytes(c);
        }
        int batch = Integer.getInteger("coffer.por.batch", 4);
        boolean remote = Boolean.getBoolean("coffer.por.remote");
        MasterKey key = MasterKey.random();
        ServerParameters params = new ServerParameters(16, batch, 64 << 10);
        JournaledPorServer local = JournaledPorServer.open(root.resolve("por"), params);
        byte[] sessionKey = new byte[PorKeyFile.KEY_BYTES];
        new SecureRandom().nextBytes(sessionKey);
        PorNetServer net = remote ? PorNetServer.start(local, sessionKey, new InetSocketAddress("127.0.0.1", 0),
                PorNetServer.Limits.DEFAULT) : null;
        PorServer server = remote ? new ReconnectingPorServer(() -> RemotePorServer.connect(
                new InetSocketAddress("127.0.0.1", net.port()), sessionKey, Duration.ofMinutes(5))) : local;
        try (JournaledPorServer behindNet = remote ? local : null; // else the PoR store closes it
             PorNetServer serving = net;
             JdbcMetadataStore meta = JdbcMetadataStore.sqlite(root.resolve("meta.db"));
             BlobStore off = new DirectoryBlobStore(root.resolve("off"));
             PorBlobStore on = PorBlobStore.open(new DirectoryBlobStore(root.resolve("inner")), meta.blockMap(),
                     server, key, root.resolve("por.state"), new SecureRandom())) {
            System.out.println(remote ? "PoR server over the network protocol on 127.0.0.1" : "PoR server embedded");
            System.out.printf("%d packs of %d MiB per round, %d put threads, %d get threads, batches of 2^%d blocks,"
                    + " load average %.1f%n", packs, packBytes >> 20, PUT_THREADS, GET_THREADS, batch, loadAverage());
            System.out.println("| round | store | PUT MB/s | PUT CPU ms/MB | GET MB/s | GET CPU ms/MB | DELETE CPU ms/MB"
                    + " | load |");
            System.out.println("|---|---|---:|---:|---:|---:|---:|---:|");
            for (int round = 0; round <= rounds; round++) { // round 0 warms up
                for (BlobStore store : List.of(off, on)) {
                    String name = store == off ? "off" : "on";
                    String prefix = "p/r" + round + "-";
                    double[] put = timed(() -> putAll(store, prefix, contents), packs * (double) packBytes);
                    double[] get = timed(() -> {
                        for (int i = 0; i < GET_REPEATS; i++) {
                            getAll(store, prefix, contents);
                        }
                    }, GET_REPEATS * packs * (double) packBytes);
                    double[] delete = timed(() -> {
                        for (int i = 0; i < packs; i++) {
                            store.delete(prefix + i);
                        }
                    }, packs * (double) packBytes);
                    if (round > 0) {
                        System.out.printf("| %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |%n", round, name, put[0],
                                put[1], get[0], get[1], delete[1], loadAverage());
                    }
                }
            }
        } finally {
            if (args.length <= 3) {
                try (Stream<Path> walk = Files.walk(root)) {
                    walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    /** {MB/s wall, CPU ms per MB of the whole process}. */
    private static double[] timed(Work work, double bytes) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long wall = System.nanoTime();
        work.run();
        double seconds = (System.nanoTime() - wall) / 1e9;
        double cpuMs = (os.getProcessCpuTime() - cpu) / 1e6;
        double mb = bytes / 1e6;
        return new double[] {mb / seconds, cpuMs / mb};
    }

    private static void putAll(BlobStore store, String prefix, byte[][] contents) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PUT_THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < contents.length; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    store.put(prefix + n, BlobContent.of(contents[n]));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void getAll(BlobStore store, String prefix, byte[][] contents) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(GET_THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < contents.length; i++) {
                for (int at = 0; at < contents[i].length; at += RANGE) {
                    int n = i;
                    int from = at;
                    done.add(pool.submit(() -> {
                        byte[] got = new byte[Math.min(RANGE, contents[n].length - from)];
                        store.readInto(prefix + n, from, got, 0, got.length);
                        if (!Arrays.equals(got, 0, got.length, contents[n], from, from + got.length)) {
                            throw new IOException("pack " + n + " read back wrong at " + from);
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}

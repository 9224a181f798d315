package io.coffer.benchmarks.layers;

import io.coffer.gateway.crypto.NativeCrypto;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.deflate.PartialDecoder;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.key.OprfKeySource;
import io.coffer.sdk.layer.LayerModePolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 20's throughput measured as SimEnc's section 6.4 measures it: per step, apart. Over the .tgz/.tar.gz files of a
 * directory in version order:
 * <ol>
 *   <li>partial decoding ({@link PartialDecoder}: gzip to token stream and side information, no re-encoding check),
 *       in MB of gzip (layer) and MB of tokens per second;</li>
 *   <li>the dedup step ({@link DedupStep}) per MB of partially decoded input, for LSH-MLE and for SimEnc.</li>
 * </ol>
 * Each on 1 thread and on {@code THREADS} (default 2) threads (the dedup step's layers then overlap, one being sealed
 * while the next is sketched and keyed: {@link DedupStep#layers}), in wall time and in process CPU time (every thread of
 * the JVM: JIT compiler and GC included). Every figure is the median of {@code ROUNDS} rounds (default 3) after one
 * untimed warm-up round, each round from a fresh index (the dedup step's state is that of one pass over the files).
 * The JCE providers are those of {@code coffer serve}: {@link NativeCrypto} installs ACCP unless
 * {@code COFFER_NATIVE_CRYPTO=off}, and the sdk's ciphers, which name no provider, then use its AES-GCM and HMAC.
 *
 * <p>Usage: {@code DedupThroughput DIR [ROUNDS [THREADS]]}; run via {@code benchmarks/run.sh dedup-throughput DIR},
 * which also prints the end-to-end layer PUT figure ({@link EngineLayerRatio}).
 */
public final class DedupThroughput {

    /** Wall and CPU seconds of one timed run. */
    record Timing(double wall, double cpu) {
    }

    private DedupThroughput() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: DedupThroughput DIR [ROUNDS [THREADS]]");
            System.exit(2);
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        if (rounds < 1 || threads < 1) {
            throw new IllegalArgumentException("rounds and threads must be at least 1");
        }
        NativeCrypto.Outcome crypto = NativeCrypto.installFromSettings();
        System.out.println("JCE: native crypto provider (ACCP) " + crypto + " (" + NativeCrypto.ENV + "=off for the"
                + " JDK's providers alone)");
        run(Path.of(args[0]), rounds, threads, System.out);
    }

    static void run(Path dir, int rounds, int threads, PrintStream out) throws Exception {
        List<Path> files = LayerExperiment.files(dir);
        List<byte[]> layers = new ArrayList<>();
        long gzipBytes = 0;
        for (Path f : files) {
            byte[] gz = Files.readAllBytes(f);
            layers.add(gz);
            gzipBytes += gz.length;
        }
        List<byte[]> tokens = decodeAll(layers, 1);
        long tokenBytes = tokens.stream().mapToLong(t -> t.length).sum();
        out.printf(Locale.ROOT, "%d files, %.1f MB of gzip, %.1f MB partially decoded (token streams); %d round(s)"
                + " after a warm-up, medians; CPU = process CPU time (all JVM threads, JIT and GC included)%n",
                files.size(), gzipBytes / 1e6, tokenBytes / 1e6, rounds);
        out.println();
        out.println("(a) partial decoding: PartialDecoder, gzip -> tokens + side information, layers in memory,"
                + " no re-encoding check");
        for (int t : threadCounts(threads)) {
            Timing m = median(rounds, () -> time(() -> decodeAll(layers, t)));
            out.printf(Locale.ROOT, "  %d thread(s): %s MB of gzip per wall s, %s per CPU s (%s / %s MB of tokens)%n",
                    t, rate(gzipBytes, m.wall()), rate(gzipBytes, m.cpu()), rate(tokenBytes, m.wall()),
                    rate(tokenBytes, m.cpu()));
        }
        out.println();
        out.println("(b) dedup step per MB of partially decoded input: 512 KiB chunks sketched (Finesse) and hashed,"
                + " keys assigned, FastCDC " + LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE + " B sub-chunks hashed,"
                + " keyed (SubChunkKeys), id'd and looked up in an in-memory index, new ones sealed (ChunkCipher"
                + " format 3: zstd where it pays, AES-256-GCM); no metadata store, packs or uploads; on more than one"
                + " thread the next layer is sketched and keyed while the previous one is sealed (DedupStep.layers)");
        MasterKey master = MasterKey.random();
        byte[] sealKey = master.deriveSecret(ChunkCipher.SEAL_PURPOSE);
        try (KeySource source = OprfKeySource.embedded(master)) {
            for (DedupStep.Method method : DedupStep.Method.values()) {
                for (int t : threadCounts(threads)) {
                    DedupStep.Result[] last = new DedupStep.Result[1];
                    Timing m = median(rounds, () -> {
                        ExecutorService pool = t > 1 ? Executors.newFixedThreadPool(t) : null;
                        try {
                            DedupStep step = new DedupStep(method, sealKey, source,
                                    LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE, LayerModePolicy.DEFAULT_THRESHOLD,
                                    pool);
                            Timing timing = time(() -> {
                                step.layers(tokens);
                                return null;
                            });
                            last[0] = step.result();
                            return timing;
                        } finally {
                            if (pool != null) {
                                pool.shutdown();
                            }
                        }
                    });
                    DedupStep.Result r = last[0];
                    out.printf(Locale.ROOT, "  %-7s %d thread(s): %s MB per wall s, %s per CPU s;"
                            + " %d sub-chunks, %d new, %.1f MB stored, %d keys%n", method.label, t,
                            rate(r.inputBytes(), m.wall()), rate(r.inputBytes(), m.cpu()), r.subChunks(),
                            r.newSubChunks(), r.storedBytes() / 1e6, r.keys());
                }
            }
        }
    }

    /**
     * MB per second, or {@code n/a} for a time of 0: the process CPU clock ticks in milliseconds or coarser, so a tiny
     * input can take no measurable CPU time.
     */
    static String rate(long bytes, double seconds) {
        return seconds > 0 ? String.format(Locale.ROOT, "%6.1f", bytes / 1e6 / seconds) : "   n/a";
    }

    private static int[] threadCounts(int threads) {
        return threads == 1 ? new int[] {1} : new int[] {1, threads};
    }

    /** The token streams of {@code layers}, decoded on {@code threads} threads. */
    static List<byte[]> decodeAll(List<byte[]> layers, int threads) throws Exception {
        byte[][] out = new byte[layers.size()][];
        AtomicInteger next = new AtomicInteger();
        Runnable worker = () -> {
            for (int i = next.getAndIncrement(); i < layers.size(); i = next.getAndIncrement()) {
                out[i] = decode(layers.get(i));
            }
        };
        if (threads == 1) {
            worker.run();
        } else {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    running.add(pool.submit(worker));
                }
                for (Future<?> f : running) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
        }
        return Arrays.asList(out);
    }

    private static byte[] decode(byte[] gz) {
        ByteArrayOutputStream tokens = new ByteArrayOutputStream(gz.length * 2);
        ByteArrayOutputStream side = new ByteArrayOutputStream(1 << 12);
        try {
            new PartialDecoder().decode(new ByteArrayInputStream(gz), tokens, side);
        } catch (IOException e) {
            throw new IllegalArgumentException("a layer does not decode: " + e.getMessage(), e);
        }
        return tokens.toByteArray();
    }

    private interface Work {
        Object run() throws Exception;
    }

    private interface Measured {
        Timing run() throws Exception;
    }

    private static Timing time(Work work) throws Exception {
        long w0 = System.nanoTime();
        long c0 = processCpuNanos();
        work.run();
        return new Timing((System.nanoTime() - w0) / 1e9, (processCpuNanos() - c0) / 1e9);
    }

    /** One untimed warm-up, then the medians (wall and CPU apart) of {@code rounds} runs. */
    private static Timing median(int rounds, Measured m) throws Exception {
        m.run();
        double[] wall = new double[rounds];
        double[] cpu = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            Timing t = m.run();
            wall[i] = t.wall();
            cpu[i] = t.cpu();
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return new Timing(wall[rounds / 2], cpu[rounds / 2]);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}

package io.coffer.benchmarks.layers;

import io.coffer.benchmarks.DedupExperiment;
import io.coffer.sdk.chunk.FastCdcChunker;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.crypto.SubChunkCipher;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.key.OprfKeySource;
import io.coffer.sdk.similarity.FinesseSketcher;
import io.coffer.sdk.similarity.SimilarityClustering;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * SimEnc's layer experiment (its Table 2 and Figure 10) over a directory of .tgz/.tar.gz files in version order:
 * sizes in the compressed, partially decoded and decompressed spaces, and what each method stores, counted from the
 * ciphertexts it produces ({@link Tally}, {@link SubChunkPipeline}):
 * <ul>
 *   <li>layer-level: whole files, deduplicated when identical;</li>
 *   <li>MLE-512K: AWS Lambda's MLE, fixed 512 KiB chunks under their SHA-256 keys;</li>
 *   <li>LSH-MLE: 512 KiB chunks keyed by Finesse FirstFit, FastCDC sub-chunks under that key;</li>
 *   <li>SimEnc: 512 KiB chunks clustered (Algorithm 1 on the warm-up versions, online assignment for the rest), one
 *       key per cluster from the key source (the embedded OPRF), FastCDC sub-chunks sealed with SubChunkCipher (SIV
 *       from HMAC-SHA256 and AES-256-CTR).</li>
 * </ul>
 * Two passes: the first decodes every file, checks that its partially decoded form re-encodes bit-exactly and
 * sketches its chunks; keys are then derived; the second decodes again and runs every pipeline.
 *
 * <p>Usage: {@code LayerExperiment DIR [--subchunks MIN:AVG:MAX,...] [--warmup N|all] [--threshold N]
 * [--percentile P] [--dedup-by ciphertext|key-and-plaintext] [--threads N]}; defaults: sub-chunks {@code 200:512:1k}
 * (the paper's) and {@code 2k:4k:8k}; warm-up {@code all}: Algorithm 1 clusters every chunk, as the paper's Figure 10
 * does ({@code --warmup N} clusters the first N versions of each package and assigns the rest online); the online
 * threshold Algorithm 1's epsilon; its percentile 0.9; dedup by key and plaintext; 2 threads; {@code --no-decompressed} leaves out LSH-MLE and SimEnc
 * in the decompressed space (the longest part of a run; MLE-512K there stays). Run via {@code benchmarks/run.sh layers DIR}.
 */
public final class LayerExperiment {
    private static final String PARTIAL = "partially decoded";
    private static final String DECOMPRESSED = "decompressed";

    private LayerExperiment() {
    }

    /** The options of one run. */
    record Options(Path dir, List<int[]> subChunks, int warmUpVersions, int threshold, boolean byCiphertext,
                   int threads, double percentile, boolean decompressedSpace) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: LayerExperiment DIR [--subchunks MIN:AVG:MAX,...] [--warmup N|all] "
                    + "[--threshold N] [--percentile P] [--dedup-by ciphertext|key-and-plaintext] [--threads N] "
                    + "[--no-decompressed]");
            System.exit(2);
        }
        List<int[]> sub = List.of(new int[] {200, 512, 1024}, new int[] {2048, 4096, 8192});
        int warm = -1;
        int threshold = -1;
        boolean byCiphertext = false;
        int threads = 2;
        double percentile = SimilarityClustering.DEFAULT_PERCENTILE;
        boolean decompressedSpace = true;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--subchunks" -> sub = parseSubChunks(args[++i]);
                case "--warmup" -> warm = args[++i].equals("all") ? -1 : Integer.parseInt(args[i]);
                case "--threshold" -> threshold = Integer.parseInt(args[++i]);
                case "--dedup-by" -> byCiphertext = switch (args[++i]) {
                    case "ciphertext" -> true;
                    case "key-and-plaintext" -> false;
                    default -> throw new IllegalArgumentException("--dedup-by ciphertext|key-and-plaintext");
                };
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--percentile" -> percentile = Double.parseDouble(args[++i]);
                case "--no-decompressed" -> decompressedSpace = false;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        run(new Options(Path.of(args[0]), sub, warm, threshold, byCiphertext, threads, percentile,
                decompressedSpace), System.out);
    }

    static List<int[]> parseSubChunks(String text) {
        List<int[]> out = new ArrayList<>();
        for (String s : text.split(",")) {
            String[] p = s.split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("sub-chunk sizes are MIN:AVG:MAX, not " + s);
            }
            out.add(new int[] {size(p[0]), size(p[1]), size(p[2])});
        }
        return out;
    }

    private static int size(String s) {
        String t = s.toLowerCase(Locale.ROOT);
        return t.endsWith("k") ? Integer.parseInt(t.substring(0, t.length() - 1)) << 10 : Integer.parseInt(t);
    }

    static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(Files::isRegularFile)
                    .filter(p -> DedupExperiment.VERSIONED.matcher(p.getFileName().toString()).matches())
                    .sorted(DedupExperiment::versionOrder)
                    .toList();
            if (files.isEmpty()) {
                throw new IllegalArgumentException("no *.tgz or *.tar.gz files in " + dir);
            }
            return files;
        }
    }

    /** Runs the experiment and prints its report to {@code out}; returns the tallies (for tests). */
    static List<Tally> run(Options o, PrintStream out) throws IOException, KeySourceException {
        List<Path> files = files(o.dir());
        FinesseSketcher sketcher = new FinesseSketcher();
        SpaceIndex partialIndex = new SpaceIndex(PARTIAL, sketcher);
        SpaceIndex decIndex = new SpaceIndex(DECOMPRESSED, sketcher);
        Map<String, Integer> versions = new HashMap<>();
        long compressed = 0;
        long sideInfo = 0;
        long decodeNanos = 0;
        int reproducible = 0;
        List<Boolean> partialOk = new ArrayList<>();
        List<String> notReproducible = new ArrayList<>();
        for (Path f : files) {
            byte[] gz = Files.readAllBytes(f);
            compressed += gz.length;
            Matcher m = DedupExperiment.VERSIONED.matcher(f.getFileName().toString());
            int version = m.matches() ? versions.merge(m.group(1), 1, Integer::sum) - 1 : 0;
            long t0 = System.nanoTime();
            LayerSpaces.Partial p = LayerSpaces.partial(gz, true);
            decodeNanos += System.nanoTime() - t0;
            partialOk.add(p.reproducible());
            if (p.reproducible()) {
                reproducible++;
                sideInfo += p.sideInfo().length;
            } else {
                notReproducible.add(f.getFileName() + ": " + p.reason());
            }
            partialIndex.file(p.reproducible() ? p.tokens() : null, version);
            byte[] dec = LayerSpaces.decompress(gz);
            decIndex.file(dec, version);
        }

        MasterKey master = MasterKey.random();
        byte[] sealKey = master.deriveSecret(SubChunkCipher.SEAL_PURPOSE);
        List<Tally> tallies = new ArrayList<>();
        List<Pipeline> pipelines = new ArrayList<>();
        Map<Pipeline, SpaceIndex> spaceOf = new HashMap<>();
        Map<Pipeline, ChunkKey[]> keysOf = new HashMap<>();
        Map<String, ChunkKeys.SimEnc> simEncInfo = new HashMap<>();

        Pipeline layer = new LayerLevelPipeline(new Tally("layer-level", "compressed", "whole file"), sealKey,
                o.byCiphertext());
        pipelines.add(layer);
        List<SpaceIndex> chunkSpaces = o.decompressedSpace() ? List.of(partialIndex, decIndex) : List.of(partialIndex);
        for (SpaceIndex space : List.of(decIndex, partialIndex)) {
            Pipeline mle = new MlePipeline(new Tally("MLE-512K", space.space, "512 KiB fixed"), sealKey,
                    o.byCiphertext());
            pipelines.add(mle);
            spaceOf.put(mle, space);
            keysOf.put(mle, ChunkKeys.mle(space));
        }
        try (KeySource source = OprfKeySource.embedded(master)) {
            for (SpaceIndex space : chunkSpaces) {
                ChunkKey[] lsh = ChunkKeys.lsh(space);
                ChunkKeys.SimEnc sim = ChunkKeys.simEnc(space, o.warmUpVersions(), o.threshold(), o.percentile(),
                        source);
                simEncInfo.put(space.space, sim);
                for (int[] s : o.subChunks()) {
                    String setting = "FastCDC " + s[0] + "/" + s[1] + "/" + s[2];
                    FastCdcChunker chunker = new FastCdcChunker(s[0], s[1], s[2]);
                    Pipeline l = new SubChunkPipeline(new Tally("LSH-MLE", space.space, setting), sealKey,
                            o.byCiphertext(), chunker);
                    Pipeline c = new SubChunkPipeline(new Tally("SimEnc", space.space, setting), sealKey,
                            o.byCiphertext(), chunker);
                    for (Pipeline p : List.of(l, c)) {
                        pipelines.add(p);
                        spaceOf.put(p, space);
                    }
                    keysOf.put(l, lsh);
                    keysOf.put(c, sim.keys());
                }
            }
        }
        for (Pipeline p : pipelines) {
            tallies.add(p.tally());
            ChunkKey[] keys = keysOf.get(p);
            p.tally().keys = keys == null ? 0 : ChunkKeys.distinct(keys);
        }

        // each pipeline's state is its own: pipelines run in parallel, one file at a time, so each sees files in order
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, o.threads()));
        for (int i = 0; i < files.size(); i++) {
            byte[] gz = Files.readAllBytes(files.get(i));
            byte[] dec = LayerSpaces.decompress(gz);
            LayerSpaces.Partial part = partialOk.get(i) ? LayerSpaces.partial(gz, false) : null;
            List<Future<?>> running = new ArrayList<>();
            int file = i;
            for (Pipeline p : pipelines) {
                SpaceIndex space = spaceOf.get(p);
                running.add(pool.submit(() -> {
                    if (space == null) {
                        p.file(gz, null, 0, null);
                    } else if (space == decIndex) {
                        p.file(dec, keysOf.get(p), decIndex.firstChunkOfFile.get(file), null);
                    } else if (part != null) {
                        p.file(part.tokens(), keysOf.get(p), partialIndex.firstChunkOfFile.get(file),
                                part.sideInfo());
                    } else {
                        p.fallback(gz);
                    }
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException("pipeline failed", e.getCause());
                }
            }
        }
        pool.shutdown();
        new LayerReport(out).print(files.size(), compressed, partialIndex, decIndex, sideInfo, reproducible,
                notReproducible, decodeNanos, simEncInfo, tallies, o);
        return tallies;
    }
}

package io.coffer.benchmarks.layers;

import io.coffer.benchmarks.EngineBenchmark;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * R from the engine's real stored bytes: every .tgz/.tar.gz of a directory, in version order, PUT into a layer-mode
 * bucket of a fresh store on a temporary directory (default settings: compression on, 1 KiB sub-chunks, the embedded
 * OPRF key source); R = original compressed bytes / bytes of the blobs the store holds afterwards (packs, manifests,
 * manifest groups, the similarity journal, bucket records). Each object is read back and compared by MD5 (the ETag).
 * Last line: {@code coffer-layers ratio R}.
 *
 * <p>Usage: {@code EngineLayerRatio DIR [MODE [SUB_CHUNK_AVERAGE [THRESHOLD [KEY_ASSIGNMENT]]]]} (defaults
 * {@code high}, 1024, 64, {@code clusters}; {@code first-fit} groups chunks as the LSH-MLE baseline does, see
 * {@link LayerModePolicy.KeyAssignment}). {@code COFFER_LAYER_RECIPES=false} in the environment stores every layer as
 * tokens, as the gateway's {@code layer-recipes} setting does.
 */
public final class EngineLayerRatio {
    private EngineLayerRatio() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: EngineLayerRatio DIR [MODE [SUB_CHUNK_AVERAGE [THRESHOLD [clusters|first-fit]]]]");
            System.exit(2);
        }
        String mode = args.length > 1 ? args[1] : "high";
        int avg = args.length > 2 ? Integer.parseInt(args[2]) : LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE;
        int threshold = args.length > 3 ? Integer.parseInt(args[3]) : LayerModePolicy.DEFAULT_THRESHOLD;
        KeyAssignment assignment = args.length > 4 ? keyAssignment(args[4]) : KeyAssignment.CLUSTERS;
        Stored s = run(Path.of(args[0]), mode, avg, threshold, assignment, System.out);
        System.out.printf(Locale.ROOT, "coffer-layers ratio %.3f%n", s.ratio());
    }

    /** {@code clusters} or {@code first-fit}. */
    static KeyAssignment keyAssignment(String text) {
        return switch (text) {
            case "clusters" -> KeyAssignment.CLUSTERS;
            case "first-fit" -> KeyAssignment.FIRST_FIT;
            default -> throw new IllegalArgumentException("key assignment is clusters or first-fit, got " + text);
        };
    }

    /**
     * What a store holds after a run: the files' original bytes and the blobs' bytes, by kind.
     *
     * @param files     objects PUT
     * @param original  their bytes as given (the .tgz files' compressed bytes)
     * @param stored    every blob of the store
     * @param packs     blobs {@code p/}
     * @param manifests blobs {@code m/} and {@code g/}
     */
    record Stored(int files, long original, long stored, long packs, long manifests) {
        double ratio() {
            return (double) original / stored;
        }

        long other() {
            return stored - packs - manifests;
        }

        /** The blobs of the directory store at {@code store}, against {@code original} bytes of {@code files}. */
        static Stored count(Path store, int files, long original) throws IOException {
            long stored = 0;
            long packs = 0;
            long manifests = 0;
            try (DirectoryBlobStore blobs = new DirectoryBlobStore(store.resolve("blobs"));
                 BlobListing all = blobs.list("")) {
                for (BlobInfo b : all) {
                    stored += b.size();
                    if (b.name().startsWith("p/")) {
                        packs += b.size();
                    } else if (b.name().startsWith("m/") || b.name().startsWith("g/")) {
                        manifests += b.size();
                    }
                }
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("listing the store's blobs failed", e);
            }
            return new Stored(files, original, stored, packs, manifests);
        }
    }

    /**
     * PUTs every file of {@code dir} in version order into a layer-mode bucket (chunks grouped under keys by
     * {@code assignment}), reads each back, prints the store's figures and returns them (the caller prints R).
     */
    static Stored run(Path dir, String mode, int subChunkAverage, int threshold, KeyAssignment assignment,
                      PrintStream out) throws Exception {
        List<Path> files = LayerExperiment.files(dir);
        Path store = Files.createTempDirectory("coffer-layer-ratio-");
        try {
            long original = 0;
            long putWall = 0;
            long putCpu = 0;
            long getWall = 0;
            long getCpu = 0;
            long start = System.nanoTime();
            boolean recipes = !"false".equalsIgnoreCase(System.getenv("COFFER_LAYER_RECIPES"));
            LayerModePolicy policy = LayerModePolicy.parse("layers=" + mode, subChunkAverage, threshold)
                    .withKeyAssignment(assignment).withZlibRecipes(recipes);
            try (Coffer coffer = Coffer.builder().directory(store).layers(policy).build()) {
                coffer.createBucket("layers", "bench");
                for (Path f : files) {
                    long size = Files.size(f);
                    original += size;
                    try (InputStream in = Files.newInputStream(f)) {
                        long t0 = System.nanoTime();
                        long c0 = processCpuNanos();
                        String etag = coffer.putObject(PutObjectRequest.of("layers", f.getFileName().toString(),
                                size), in).etag();
                        long t1 = System.nanoTime();
                        long c1 = processCpuNanos();
                        String back;
                        try (var content = coffer.getObject("layers", f.getFileName().toString())) {
                            back = md5Hex(content.stream());
                        }
                        putWall += t1 - t0;
                        putCpu += c1 - c0;
                        getWall += System.nanoTime() - t1;
                        getCpu += processCpuNanos() - c1;
                        if (!back.equals(etag)) {
                            throw new IllegalStateException(f + " read back with MD5 " + back + ", not " + etag);
                        }
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Stored s = Stored.count(store, files.size(), original);
            out.printf(Locale.ROOT, "engine, layer mode %s, %s, %d B sub-chunks, threshold %d, zlib recipes %s: %d"
                    + " files, %d original bytes; stored %d (packs %d, manifests %d, other %d); PUT+GET %.1f s (%.1f"
                    + " MB/s put and read back)%n", mode,
                    assignment == KeyAssignment.CLUSTERS ? "SimEnc clusters" : "LSH-MLE FirstFit", subChunkAverage,
                    threshold, policy.zlibRecipes() ? "on" : "off", files.size(), original, s.stored(), s.packs(),
                    s.manifests(),
                    s.other(), seconds, original / 1e6 / seconds);
            out.printf(Locale.ROOT, "dedup throughput (layer-mode PUT, MB of gzip): %.1f MB/s wall, %.1f MB per process"
                    + " CPU second (%.1f s wall, %.1f s CPU); GET: %.1f MB/s wall, %.1f MB per CPU second%n",
                    original / 1e3 / (putWall / 1e6), original / 1e3 / (putCpu / 1e6), putWall / 1e9, putCpu / 1e9,
                    original / 1e3 / (getWall / 1e6), original / 1e3 / (getCpu / 1e6));
            return s;
        } finally {
            EngineBenchmark.deleteTree(store);
        }
    }

    /** CPU time of the whole process (all threads, the engine's pools and GC included), nanoseconds. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static String md5Hex(InputStream in) throws IOException {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] buf = new byte[1 << 16];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                md5.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md5.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.coffer.benchmarks;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.StoreStats;
import io.coffer.sdk.chunk.ChunkerSpec;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * How much the engine deduplicates a directory of files, per chunker: every file is stored as one object through the
 * embedded engine ({@code Coffer.builder().directory(tmp)}, a fresh temporary directory per run, defaults except the
 * chunker), in version order, and the run reports the bytes that reached the backend.
 *
 * <p>Each chunker runs in two modes: {@code gz} stores the files as they are (compressed tarballs: a small change
 * early in a tarball changes every compressed byte after it, so little is expected to dedup across versions) and
 * {@code tar} stores each {@code .tgz}/{@code .tar.gz} decompressed on the fly ({@link GZIPInputStream} feeding the
 * PUT, object name {@code *.tar}), showing what dedup finds in the uncompressed space.
 *
 * <p>Reported per run: files, input bytes (object bytes stored), stored bytes ({@link StoreStats#packBytes()}, the
 * packs with their sealed indexes), the size of the whole backend directory (packs plus manifests and bucket
 * records), stored/input, new chunks, time and input MiB/s; then per package (the file name up to the version), the
 * pack bytes its files added.
 *
 * <p>Usage: {@code DedupExperiment DATASET_DIR [--specs SPEC,SPEC...] [--modes gz,tar]}; defaults: the specs
 * {@code fastcdc:256k:1m:4m}, {@code fastcdc:16k:64k:512k}, {@code fixed:1m} and both modes. Run via
 * {@code benchmarks/run.sh dedup DATASET_DIR}.
 */
public final class DedupExperiment {
    private static final List<String> DEFAULT_SPECS = List.of("fastcdc:256k:1m:4m", "fastcdc:16k:64k:512k",
            "fixed:1m");
    /** A versioned tarball: package (group 1), version (group 2), extension (group 3). */
    public static final Pattern VERSIONED = Pattern.compile("(.+?)-(\\d.*)\\.(tgz|tar\\.gz)");

    private DedupExperiment() {
    }

    /** The outcome of one (spec, mode) run. */
    record Run(String spec, String mode, int files, long inputBytes, long packBytes, long backendBytes, long chunks,
               double seconds, Map<String, long[]> perPackage) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: DedupExperiment DATASET_DIR [--specs SPEC,SPEC...] [--modes gz,tar]");
            System.exit(2);
        }
        Path dataset = Path.of(args[0]);
        List<String> specs = DEFAULT_SPECS;
        List<String> modes = List.of("gz", "tar");
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--specs" -> specs = List.of(args[++i].split(","));
                case "--modes" -> modes = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dataset)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> VERSIONED.matcher(p.getFileName().toString()).matches())
                    .sorted(DedupExperiment::versionOrder)
                    .toList();
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no *.tgz or *.tar.gz files in " + dataset);
        }
        long total = 0;
        for (Path f : files) {
            total += Files.size(f);
        }
        System.out.printf(Locale.ROOT, "dataset: %s, %d files, %d bytes (%.1f MiB)%n", dataset, files.size(), total,
                total / 1048576.0);
        List<Run> runs = new ArrayList<>();
        for (String mode : modes) {
            for (String spec : specs) {
                Run r = run(files, ChunkerSpec.parse(spec), mode);
                runs.add(r);
                System.out.printf(Locale.ROOT, "done: %s %s in %.1f s%n", spec, mode, r.seconds());
            }
        }
        System.out.println();
        System.out.println("| chunker | mode | files | input bytes | stored bytes (packs) | backend dir bytes "
                + "| stored/input | new chunks | time s | input MiB/s |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Run r : runs) {
            System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.1f %% | %d | %.1f | %.0f |%n",
                    r.spec(), r.mode(), r.files(), r.inputBytes(), r.packBytes(), r.backendBytes(),
                    100.0 * r.packBytes() / r.inputBytes(), r.chunks(), r.seconds(),
                    r.inputBytes() / 1048576.0 / r.seconds());
        }
        System.out.println();
        System.out.println("| chunker | mode | package | files | input bytes | stored bytes (packs) | stored/input |");
        System.out.println("|---|---|---|---:|---:|---:|---:|");
        for (Run r : runs) {
            for (Map.Entry<String, long[]> e : r.perPackage().entrySet()) {
                long[] v = e.getValue();
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %d | %d | %d | %.1f %% |%n", r.spec(), r.mode(),
                        e.getKey(), v[0], v[1], v[2], 100.0 * v[2] / v[1]);
            }
        }
    }

    static Run run(List<Path> files, ChunkerSpec spec, String mode) throws IOException {
        Path dir = Files.createTempDirectory("coffer-dedup");
        try {
            Map<String, long[]> perPackage = new LinkedHashMap<>();
            long input = 0;
            long start = System.nanoTime();
            StoreStats stats;
            try (Coffer coffer = Coffer.builder().directory(dir).chunker(spec.newChunker()).build()) {
                coffer.createBucket("dedup", "bench");
                long packsBefore = coffer.stats().packBytes();
                for (Path f : files) {
                    String name = f.getFileName().toString();
                    Matcher m = VERSIONED.matcher(name);
                    if (!m.matches()) {
                        throw new IllegalStateException(name);
                    }
                    long bytes;
                    if (mode.equals("gz")) {
                        long size = Files.size(f);
                        try (InputStream in = Files.newInputStream(f)) {
                            bytes = coffer.putObject(PutObjectRequest.of("dedup", name, size), in).size();
                        }
                    } else if (mode.equals("tar")) {
                        String tarName = m.group(1) + "-" + m.group(2) + ".tar";
                        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(f),
                                1 << 16), 1 << 16)) {
                            bytes = coffer.putObject(PutObjectRequest.of("dedup", tarName, -1), in).size();
                        }
                    } else {
                        throw new IllegalArgumentException("mode must be gz or tar, not " + mode);
                    }
                    long packsAfter = coffer.stats().packBytes();
                    long[] v = perPackage.computeIfAbsent(m.group(1), k -> new long[3]);
                    v[0]++;
                    v[1] += bytes;
                    v[2] += packsAfter - packsBefore;
                    packsBefore = packsAfter;
                    input += bytes;
                }
                stats = coffer.stats();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long backend;
            try (Stream<Path> s = Files.walk(dir.resolve("blobs"))) {
                backend = s.filter(Files::isRegularFile).mapToLong(p -> {
                    try {
                        return Files.size(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }).sum();
            }
            return new Run(spec.toString(), mode, files.size(), input, stats.packBytes(), backend, stats.chunks(),
                    seconds, perPackage);
        } finally {
            EngineBenchmark.deleteTree(dir);
        }
    }

    /** Orders by package, then version ("a-5.4.9" before "a-5.4.10", "django-4.2" before "django-4.2.1"). */
    public static int versionOrder(Path a, Path b) {
        Matcher ma = VERSIONED.matcher(a.getFileName().toString());
        Matcher mb = VERSIONED.matcher(b.getFileName().toString());
        if (!ma.matches() || !mb.matches()) {
            return a.compareTo(b);
        }
        int c = ma.group(1).compareTo(mb.group(1));
        if (c != 0) {
            return c;
        }
        String[] va = ma.group(2).split("\\.");
        String[] vb = mb.group(2).split("\\.");
        for (int i = 0; i < Math.min(va.length, vb.length); i++) {
            c = va[i].matches("\\d+") && vb[i].matches("\\d+")
                    ? new BigInteger(va[i]).compareTo(new BigInteger(vb[i]))
                    : va[i].compareTo(vb[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(va.length, vb.length);
    }
}

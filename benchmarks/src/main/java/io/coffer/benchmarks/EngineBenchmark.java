package io.coffer.benchmarks;

import io.coffer.sdk.crypto.JceWarmup;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.MemoryBlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The embedded engine end to end ({@code Coffer.builder().directory(tmp)}: directory backend that fsyncs every pack,
 * SQLite metadata, embedded OPRF key source, FastCDC 256k/1m/4m, 8 MiB packs), and in the same run, with the same JVM
 * settings and fork count, the raw single-thread MD5, SHA-256 and AES-256-CTR speeds over the same 256 MiB so that
 * the ratios PUT/MD5 and GET/SHA-256 are taken under the same conditions.
 *
 * <ul>
 *   <li>{@link #putLarge}: one PUT of a 256 MiB body from a {@link ByteArrayInputStream} (random bytes generated once
 *       per trial, not measured) into a fresh store: every iteration gets a new temporary directory, so nothing
 *       dedups against an earlier iteration.</li>
 *   <li>{@link #getLarge}: GET of that object (stored once per trial), read to a null sink through a 1 MiB buffer.
 *       The packs are in the page cache.</li>
 *   <li>{@link #rawMd5}, {@link #rawSha256}, {@link #rawAesCtr}: the baselines over a 256 MiB buffer.</li>
 *   <li>{@link #rawBackendPut}: the backend alone, the ceiling for a durable PUT: the same 256 MiB stored as 32 blobs
 *       of 8 MiB (the pack size) through the same kind of {@link BlobStore} the engine uses, one after another, into a
 *       fresh directory per iteration (directory: write, fsync, rename, fsync of the directory, per blob).</li>
 *   <li>{@link #putSmall}, {@link #getSmall}: 4 KiB objects, ops/s. They are inline (docs/FORMAT.md): each PUT
 *       writes and fsyncs its sealed manifest and commits its own SQLite transaction; a GET reads only SQLite.</li>
 * </ul>
 *
 * <p>By default {@link JceWarmup} runs first in every fork ({@code warmJce=true}): steady state. Chunks are compressed
 * (the engine's default) and the large object is random; {@code -p compression=true,false -p data=random,text}
 * measures compression's cost beside the uncompressed path, and each PUT iteration prints the pack bytes it stored.
 *
 * <p>Scores of the large benchmarks are milliseconds per 256 MiB (single shot); {@link JmhSummary} turns them into
 * MiB/s and ratios. Run: {@code benchmarks/run.sh jmh EngineBenchmark}.
 */
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class EngineBenchmark {
    /**
     * Unmeasured shots before the five measured ones of each single-shot benchmark (256 MiB each). With 3, C2 was still
     * compiling the PUT path during the measured shots (docs/BENCHMARKS.md, "Figures the code cites"); a gateway
     * serves from the steady state.
     */
    static final int SHOT_WARMUPS = 8;

    /** Size of the large object and of the baseline buffers. */
    public static final int LARGE_MIB = 256;
    static final int LARGE = LARGE_MIB << 20;
    static final int SMALL = 4 << 10;
    static final String BUCKET = "bench";

    /**
     * Whether {@link JceWarmup} runs before the trial (steady state of a long-running gateway); {@code false}
     * measures a freshly started JVM, where AES-CTR is not yet intrinsic ({@code -p warmJce=false}).
     */
    @Param({"true"})
    public boolean warmJce;

    @Setup(Level.Trial)
    public void warmUp() {
        if (warmJce) {
            JceWarmup.run();
        }
    }

    /**
     * Where packs go: {@code directory} (the embedded default, fsync per pack) or, as a diagnostic that takes the
     * file system out of the measurement, {@code memory} (a {@link MemoryBlobStore}; SQLite stays in the directory):
     * {@code -p backend=memory}.
     */
    @Param({"directory"})
    public String backend;

    /**
     * Whether chunks are compressed before they are encrypted (the default) or not: {@code -p compression=true,false}
     * measures its cost beside the uncompressed path.
     */
    @Param({"true"})
    public boolean compression;

    /**
     * The large object's content: {@code random} (incompressible: stored raw after one compression attempt per chunk)
     * or {@code text} (text-like, {@link Data#text}): {@code -p data=random,text}.
     */
    @Param({"random"})
    public String data;

    /** A fresh embedded store in a temporary directory. */
    static Coffer openStore(Path dir, String backend) {
        return openStore(dir, backend, true);
    }

    /** A fresh embedded store in a temporary directory, compressing chunks or not. */
    static Coffer openStore(Path dir, String backend, boolean compression) {
        var builder = Coffer.builder().directory(dir).compression(compression);
        if (backend.equals("memory")) {
            builder.blobStore(new MemoryBlobStore());
        } else if (!backend.equals("directory")) {
            throw new IllegalArgumentException("backend must be directory or memory, not " + backend);
        }
        Coffer coffer = builder.build();
        coffer.createBucket(BUCKET, "bench");
        return coffer;
    }

    /** Deletes {@code dir} and everything under it; nothing for null or a missing directory. */
    public static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static long drain(InputStream in, byte[] buf) throws IOException {
        long total = 0;
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            total += n;
        }
        return total;
    }

    /** The 256 MiB body, generated once per trial; a new store per iteration. */
    @State(Scope.Thread)
    public static class PutState {
        byte[] data;
        Path dir;
        Coffer coffer;

        @Setup(Level.Trial)
        public void data(EngineBenchmark bench) {
            data = Data.of(bench.data, LARGE, 11);
        }

        @Setup(Level.Iteration)
        public void open(EngineBenchmark bench) throws IOException {
            dir = Files.createTempDirectory("coffer-bench-put");
            coffer = openStore(dir, bench.backend, bench.compression);
        }

        /** Prints what the PUT stored (packs on the backend) against the body. */
        void reportStored() throws IOException {
            if (Files.isDirectory(dir.resolve("blobs/p"))) {
                try (var files = Files.walk(dir.resolve("blobs/p"))) {
                    long stored = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
                    System.out.printf("%n[stored] %d of %d bytes (%.1f %%)%n", stored, LARGE, 100.0 * stored / LARGE);
                }
            }
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            coffer.close();
            reportStored();
            deleteTree(dir);
        }
    }

    /** A store holding one 256 MiB object, written once per trial. */
    @State(Scope.Thread)
    public static class GetState {
        Path dir;
        Coffer coffer;
        final byte[] buf = new byte[1 << 20];

        @Setup(Level.Trial)
        public void open(EngineBenchmark bench) throws IOException {
            dir = Files.createTempDirectory("coffer-bench-get");
            coffer = openStore(dir, bench.backend, bench.compression);
            byte[] data = Data.of(bench.data, LARGE, 12);
            coffer.putObject(PutObjectRequest.of(BUCKET, "large", LARGE), new ByteArrayInputStream(data));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            coffer.close();
            deleteTree(dir);
        }
    }

    /** The 256 MiB buffer for the raw baselines. */
    @State(Scope.Thread)
    public static class RawState {
        byte[] data;
        byte[] out;
        MessageDigest md5;
        MessageDigest sha256;
        Cipher ctr;
        SecretKeySpec key;

        @Setup(Level.Trial)
        public void setUp() throws GeneralSecurityException {
            data = Data.random(LARGE, 13);
            out = new byte[LARGE];
            md5 = MessageDigest.getInstance("MD5");
            sha256 = MessageDigest.getInstance("SHA-256");
            ctr = Cipher.getInstance("AES/CTR/NoPadding");
            key = new SecretKeySpec(Data.random(32, 14), "AES");
        }
    }

    /** A bare blob store of the benchmark's backend kind in a fresh directory per iteration, and 256 MiB to store. */
    @State(Scope.Thread)
    public static class BackendState {
        byte[] data;
        Path dir;
        BlobStore blobs;

        @Setup(Level.Trial)
        public void data() {
            data = Data.random(LARGE, 15);
        }

        @Setup(Level.Iteration)
        public void open(EngineBenchmark bench) throws IOException {
            dir = Files.createTempDirectory("coffer-bench-backend");
            blobs = switch (bench.backend) {
                case "directory" -> new DirectoryBlobStore(dir);
                case "memory" -> new MemoryBlobStore();
                default -> throw new IllegalArgumentException("backend must be directory or memory");
            };
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            blobs = null;
            deleteTree(dir);
        }
    }

    /** A store for 4 KiB objects: {@code GET_KEYS} of them stored up front for GET, PUTs go to new keys. */
    @State(Scope.Thread)
    public static class SmallState {
        static final int GET_KEYS = 1024;
        Path dir;
        Coffer coffer;
        final byte[] body = Data.random(SMALL, 15);
        final byte[] buf = new byte[SMALL];
        long puts;
        int gets;

        @Setup(Level.Trial)
        public void open(EngineBenchmark bench) throws IOException {
            dir = Files.createTempDirectory("coffer-bench-small");
            coffer = openStore(dir, bench.backend);
            for (int i = 0; i < GET_KEYS; i++) {
                stamp(i);
                coffer.putObject(PutObjectRequest.of(BUCKET, "get/" + i, SMALL), new ByteArrayInputStream(body));
            }
            puts = GET_KEYS;
        }

        /** Makes the body unique so that it does not dedup against an earlier one. */
        void stamp(long n) {
            for (int k = 0; k < 8; k++) {
                body[k] = (byte) (n >>> (8 * k));
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            coffer.close();
            deleteTree(dir);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = SHOT_WARMUPS)
    @Measurement(iterations = 5)
    public Object putLarge(PutState s) {
        return s.coffer.putObject(PutObjectRequest.of(BUCKET, "large", LARGE), new ByteArrayInputStream(s.data));
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = SHOT_WARMUPS)
    @Measurement(iterations = 5)
    public long getLarge(GetState s) throws IOException {
        try (ObjectContent c = s.coffer.getObject(BUCKET, "large")) {
            long n = drain(c.stream(), s.buf);
            if (n != LARGE) {
                throw new IllegalStateException("read " + n + " bytes");
            }
            return n;
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = SHOT_WARMUPS)
    @Measurement(iterations = 5)
    public byte[] rawMd5(RawState s) {
        s.md5.update(s.data, 0, LARGE);
        return s.md5.digest();
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = SHOT_WARMUPS)
    @Measurement(iterations = 5)
    public byte[] rawSha256(RawState s) {
        s.sha256.update(s.data, 0, LARGE);
        return s.sha256.digest();
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = SHOT_WARMUPS)
    @Measurement(iterations = 5)
    public int rawBackendPut(BackendState s) throws IOException {
        int pack = CofferBuilder.DEFAULT_PACK_SIZE;
        int n = 0;
        for (int off = 0; off < LARGE; off += pack, n++) {
            s.blobs.put(String.format("p/%02x/%04d", n & 0xff, n), BlobContent.of(s.data, off, pack));
        }
        return n;
    }

    /** AES-256-CTR in 1 MiB {@code update} slices: the cipher of format-1 chunks (see ChunkCipher), as a raw baseline. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = SHOT_WARMUPS)
    @Measurement(iterations = 5)
    public byte[] rawAesCtr(RawState s) throws GeneralSecurityException {
        s.ctr.init(Cipher.ENCRYPT_MODE, s.key, new IvParameterSpec(new byte[16]));
        int done = 0;
        while (done < LARGE) {
            done += s.ctr.update(s.data, done, 1 << 20, s.out, done);
        }
        s.ctr.doFinal(s.out, done);
        return s.out;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 3, time = 3)
    public Object putSmall(SmallState s) {
        s.stamp(s.puts);
        return s.coffer.putObject(PutObjectRequest.of(BUCKET, "put/" + s.puts++, SMALL),
                new ByteArrayInputStream(s.body));
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 3, time = 3)
    public long getSmall(SmallState s) throws IOException {
        int i = s.gets++ % SmallState.GET_KEYS;
        try (ObjectContent c = s.coffer.getObject(BUCKET, "get/" + i)) {
            return drain(c.stream(), s.buf);
        }
    }
}

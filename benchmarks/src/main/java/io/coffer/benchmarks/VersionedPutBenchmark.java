package io.coffer.benchmarks;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.JceWarmup;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * The cost of bucket versioning on a PUT (issue 21's target: a versioned PUT costs at most 10 % over a plain one): the
 * embedded engine ({@code Coffer.builder().directory(tmp)}, as {@link EngineBenchmark}) overwriting 64 keys in turn,
 * in a bucket that was never versioned ({@code versioning=unversioned}: each PUT replaces the key's object and forgets
 * its manifest) and in one with versioning enabled ({@code enabled}: each PUT moves the current version to
 * {@code object_versions}, so the keys' histories grow through the run). {@code size=4096} is an inline object (one
 * sealed manifest in a group, one SQLite commit); {@code size=1048576} is chunked, and its body is the same every
 * time, so its chunks dedup and the PUT is mostly chunking, hashing and the commit. Ops/s.
 * Run: {@code benchmarks/run.sh jmh VersionedPutBenchmark}.
 */
@State(Scope.Benchmark)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VersionedPutBenchmark {
    private static final int KEYS = 64;

    @Param({"unversioned", "enabled"})
    public String versioning;

    @Param({"4096", "1048576"})
    public int size;

    private Path dir;
    private Coffer coffer;
    private byte[] body;
    private int next;

    @Setup(Level.Trial)
    public void open() throws IOException {
        JceWarmup.run();
        dir = Files.createTempDirectory("coffer-versioned-put");
        coffer = EngineBenchmark.openStore(dir, "directory");
        if (versioning.equals("enabled")) {
            coffer.putBucketVersioning(coffer.headBucket(EngineBenchmark.BUCKET), BucketVersioning.ENABLED);
        } else if (!versioning.equals("unversioned")) {
            throw new IllegalArgumentException("versioning must be unversioned or enabled, not " + versioning);
        }
        body = new byte[size];
        new Random(size).nextBytes(body);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        coffer.close();
        EngineBenchmark.deleteTree(dir);
    }

    @Benchmark
    public ObjectInfo overwrite() {
        String key = "key-" + (next++ % KEYS);
        return coffer.putObject(PutObjectRequest.of(EngineBenchmark.BUCKET, key, size), new ByteArrayInputStream(body));
    }
}

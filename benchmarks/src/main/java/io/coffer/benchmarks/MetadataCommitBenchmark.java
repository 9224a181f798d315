package io.coffer.benchmarks;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Commits of small objects into the SQLite metadata store (synchronous=FULL, so each committed transaction is a WAL
 * fsync), the metadata half of a gateway PUT: a fresh key per op, no chunk references, a manifest of 200 bytes or of
 * 4,400 (a 4 KiB object's bytes travel inside its manifest). {@code commitSmall} runs on 8 threads, as the gateway
 * benchmark's 4 KiB phase does, so concurrent commits can share a transaction; {@code commitSmallAlone} on one.
 *
 * <p>Run: {@code benchmarks/run.sh jmh MetadataCommitBenchmark} (quick: {@code -f 1 -wi 2 -i 3}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class MetadataCommitBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private final AtomicLong keys = new AtomicLong();
    private final byte[] attributes = new byte[40];
    /** Manifest bytes per object: 200 (chunked object) or 4,400 (a 4 KiB object's bytes travel inside it). */
    @Param({"200", "4400"})
    public int manifestBytes;

    private byte[] manifest;
    private Path dir;
    private JdbcMetadataStore store;

    /** A fresh database file in a temporary directory, with one bucket. */
    @Setup(Level.Trial)
    public void open() throws IOException {
        manifest = new byte[manifestBytes];
        dir = Files.createTempDirectory("coffer-meta-bench");
        store = JdbcMetadataStore.sqlite(dir.resolve("meta.db"));
        store.createBucket(new Bucket("bench", "owner", null, NOW));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private Object commitFresh() {
        long n = keys.incrementAndGet();
        return store.commitObject(new ObjectRecord("bench", "k/" + n, "v" + n, 4096, "\"etag\"", NOW, attributes,
                manifest, List.of()), NewChunks.NONE, Precondition.NONE, null);
    }

    @Benchmark
    @Threads(8)
    public Object commitSmall() {
        return commitFresh();
    }

    @Benchmark
    @Threads(1)
    public Object commitSmallAlone() {
        return commitFresh();
    }
}

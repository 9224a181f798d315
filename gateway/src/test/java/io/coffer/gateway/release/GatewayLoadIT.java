package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Load on the gateway as it ships: {@code ./coffer serve} (the launcher, with the jar and lib/ the build made, its JVM
 * options) with a bounded heap (directory backend and SQLite in a temporary directory), driven by {@value #DEFAULT_CLIENTS} concurrent clients (one AWS SDK v2 sync client over one
 * Apache connection pool, one thread per client) doing a random mix of PUTs of fresh random objects from 4 KiB to
 * 8 MiB and GETs of objects stored earlier, every GET checked against the MD5 recorded when it was stored.
 *
 * <p>Asserts zero errors, every GET matched, the gateway alive with no OutOfMemoryError and no 5xx in its own
 * metrics, and reports its heap high-water mark (sampled over JMX), latency percentiles per operation and size class,
 * and throughput. No timing is asserted.
 *
 * <p>System properties: {@code coffer.load.seconds} (default {@value #DEFAULT_SECONDS}; the load command uses 60),
 * {@code coffer.load.clients} (default {@value #DEFAULT_CLIENTS}), {@code coffer.load.heap} (the gateway's -Xmx,
 * default {@value #DEFAULT_HEAP}). The summary also goes to {@code target/load/gateway-load-summary.txt}.
 */
class GatewayLoadIT {
    static final int DEFAULT_SECONDS = 12;
    static final int DEFAULT_CLIENTS = 64;
    static final String DEFAULT_HEAP = "512m";
    private static final String BUCKET = "load";
    private static final Pattern REQUESTS = Pattern.compile(
            "^coffer_s3_requests_total\\{([^}]*)}\\s+([0-9.eE+]+)", Pattern.MULTILINE);
    private static final Pattern STATUS = Pattern.compile("status=\"(\\d+)\"");

    /** Object sizes: a class is picked by weight, then a size uniformly within it. */
    enum SizeClass {
        SMALL("4KiB-64KiB", 4 << 10, 64 << 10, 0.50),
        MEDIUM("64KiB-1MiB", 64 << 10, 1 << 20, 0.35),
        LARGE("1MiB-8MiB", 1 << 20, (8 << 20) + 1, 0.15);

        final String label;
        final int min;
        final int maxExclusive;
        final double weight;

        SizeClass(String label, int min, int maxExclusive, double weight) {
            this.label = label;
            this.min = min;
            this.maxExclusive = maxExclusive;
            this.weight = weight;
        }

        static SizeClass of(long size) {
            for (SizeClass c : values()) {
                if (size < c.maxExclusive) {
                    return c;
                }
            }
            return LARGE;
        }

        static SizeClass pick(SplittableRandom rnd) {
            double x = rnd.nextDouble();
            for (SizeClass c : values()) {
                x -= c.weight;
                if (x < 0) {
                    return c;
                }
            }
            return LARGE;
        }
    }

    enum Op { PUT, GET }

    /** An object stored during the run. */
    record Stored(String key, long size, String md5) {
    }

    /** One completed operation. */
    record Sample(Op op, SizeClass size, long bytes, long nanos) {
    }

    private final List<Stored> catalog = new ArrayList<>();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong errorCount = new AtomicLong();
    private final AtomicLong mismatches = new AtomicLong();
    private final AtomicLong getsVerified = new AtomicLong();

    @Test
    void mixedPutGetUnderLoadHasNoErrorsVerifiesEveryGetAndStaysInItsHeap(@TempDir Path tmp) throws Exception {
        int seconds = Integer.getInteger("coffer.load.seconds", DEFAULT_SECONDS);
        int clients = Integer.getInteger("coffer.load.clients", DEFAULT_CLIENTS);
        String heap = System.getProperty("coffer.load.heap", DEFAULT_HEAP);
        String accessKey = "LOADTEST" + Long.toHexString(System.nanoTime()).toUpperCase(Locale.ROOT);
        String secretKey = HexFormat.of().formatHex(randomBytes(new SplittableRandom(), 20));

        try (GatewayProcess gw = GatewayProcess.start(tmp.resolve("data"), heap, accessKey, secretKey);
             S3Client s3 = client(gw.port(), accessKey, secretKey, clients)) {
            s3.createBucket(b -> b.bucket(BUCKET));
            gw.startSampling(200);

            long start = System.nanoTime();
            long deadline = start + Duration.ofSeconds(seconds).toNanos();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            List<Future<List<Sample>>> results = new ArrayList<>();
            long seedBase = System.nanoTime();
            for (int i = 0; i < clients; i++) {
                int client = i;
                results.add(pool.submit(() -> runClient(s3, client, new SplittableRandom(seedBase + client), deadline)));
            }
            List<Sample> samples = new ArrayList<>();
            for (Future<List<Sample>> f : results) {
                samples.addAll(f.get());
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            gw.stopSampling();

            boolean alive = gw.isAlive();
            String metrics = alive ? gw.metrics() : "";
            Map<String, Long> byStatus = statusCounts(metrics);
            long maxHeap = alive ? gw.maxHeap() : -1;
            long poolPeaks = alive ? gw.heapPoolPeaks() : -1;
            String summary = summary(clients, seconds, heap, elapsed, samples, gw, maxHeap, poolPeaks, byStatus);
            System.out.println(summary);
            Path out = Path.of("target", "load");
            Files.createDirectories(out);
            Files.writeString(out.resolve("gateway-load-summary.txt"), summary, StandardCharsets.UTF_8);

            assertThat(errors).as("client errors (%d in all)", errorCount.get()).isEmpty();
            assertThat(errorCount.get()).isZero();
            assertThat(mismatches.get()).as("GETs whose bytes did not match").isZero();
            assertThat(samples).anyMatch(s -> s.op() == Op.PUT).anyMatch(s -> s.op() == Op.GET);
            assertThat(getsVerified.get()).isEqualTo(samples.stream().filter(s -> s.op() == Op.GET).count());
            assertThat(alive).as("gateway process alive after the run").isTrue();
            assertThat(gw.output()).doesNotContain("OutOfMemoryError");
            assertThat(gw.samplerFailure()).as("heap sampling").isNull();
            assertThat(gw.samples()).isPositive();
            assertThat(gw.maxHeapUsed()).isPositive().isLessThanOrEqualTo(maxHeap);
            assertThat(byStatus).as("gateway requests by status").isNotEmpty()
                    .allSatisfy((status, n) -> assertThat(Integer.parseInt(status)).isLessThan(500));
        }
    }

    private List<Sample> runClient(S3Client s3, int client, SplittableRandom rnd, long deadline) {
        List<Sample> samples = new ArrayList<>();
        byte[] buf = new byte[64 << 10];
        int n = 0;
        while (System.nanoTime() < deadline) {
            Stored target = rnd.nextBoolean() ? pickStored(rnd) : null;
            try {
                if (target == null) {
                    SizeClass c = SizeClass.pick(rnd);
                    long size = c.min + rnd.nextInt(c.maxExclusive - c.min);
                    String key = "c" + client + "/o" + (n++);
                    long seed = rnd.nextLong();
                    RandomBody.Opened last = new RandomBody.Opened();
                    long t0 = System.nanoTime();
                    PutObjectResponse put = s3.putObject(r -> r.bucket(BUCKET).key(key).contentLength(size),
                            RequestBody.fromContentProvider(() -> last.open(seed, size), size,
                                    "application/octet-stream"));
                    long nanos = System.nanoTime() - t0;
                    String md5 = last.md5Hex();
                    if (!put.eTag().equals("\"" + md5 + "\"")) {
                        fail("PUT " + key + ": ETag " + put.eTag() + " is not the MD5 " + md5);
                        continue;
                    }
                    samples.add(new Sample(Op.PUT, c, size, nanos));
                    synchronized (catalog) {
                        catalog.add(new Stored(key, size, md5));
                    }
                } else {
                    MessageDigest md = md5();
                    long got = 0;
                    long t0 = System.nanoTime();
                    String etag;
                    try (ResponseInputStream<GetObjectResponse> in = s3.getObject(r -> r.bucket(BUCKET)
                            .key(target.key()))) {
                        etag = in.response().eTag();
                        for (int k = in.read(buf); k >= 0; k = in.read(buf)) {
                            md.update(buf, 0, k);
                            got += k;
                        }
                    }
                    long nanos = System.nanoTime() - t0;
                    String md5 = HexFormat.of().formatHex(md.digest());
                    if (got != target.size() || !md5.equals(target.md5())
                            || !etag.equals("\"" + target.md5() + "\"")) {
                        mismatches.incrementAndGet();
                        fail("GET " + target.key() + ": " + got + " bytes, MD5 " + md5 + ", ETag " + etag
                                + "; stored " + target.size() + " bytes, MD5 " + target.md5());
                        continue;
                    }
                    getsVerified.incrementAndGet();
                    samples.add(new Sample(Op.GET, SizeClass.of(target.size()), got, nanos));
                }
            } catch (RuntimeException | IOException e) {
                fail((target == null ? "PUT" : "GET " + target.key()) + ": " + e);
            }
        }
        return samples;
    }

    private Stored pickStored(SplittableRandom rnd) {
        synchronized (catalog) {
            return catalog.isEmpty() ? null : catalog.get(rnd.nextInt(catalog.size()));
        }
    }

    private void fail(String message) {
        if (errorCount.incrementAndGet() <= 20) {
            errors.add(message);
        }
    }

    private static S3Client client(int port, String accessKey, String secretKey, int clients) {
        return S3Client.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey,
                        secretKey)))
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(clients + 8)
                        .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofMinutes(2)))
                // no retries: every failure the gateway causes must show up as an error
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    private static Map<String, Long> statusCounts(String metrics) {
        Map<String, Long> counts = new TreeMap<>();
        Matcher m = REQUESTS.matcher(metrics);
        while (m.find()) {
            Matcher s = STATUS.matcher(m.group(1));
            if (s.find()) {
                counts.merge(s.group(1), (long) Double.parseDouble(m.group(2)), Long::sum);
            }
        }
        return counts;
    }

    private String summary(int clients, int seconds, String heap, double elapsed, List<Sample> samples,
                           GatewayProcess gw, long maxHeap, long poolPeaks, Map<String, Long> byStatus) {
        StringBuilder sb = new StringBuilder();
        long puts = samples.stream().filter(s -> s.op() == Op.PUT).count();
        long gets = samples.size() - puts;
        long bytes = samples.stream().mapToLong(Sample::bytes).sum();
        sb.append(String.format(Locale.ROOT, "GatewayLoadIT: %d clients, %d s (%.1f s measured), gateway -Xmx%s,"
                        + " directory backend + SQLite%n", clients, seconds, elapsed, heap));
        sb.append(String.format(Locale.ROOT, "%-4s %-11s %8s %9s %9s %9s %9s%n", "op", "size", "count", "p50 ms",
                "p99 ms", "max ms", "MB/s"));
        for (Op op : Op.values()) {
            Map<SizeClass, List<Sample>> by = new EnumMap<>(SizeClass.class);
            for (Sample s : samples) {
                if (s.op() == op) {
                    by.computeIfAbsent(s.size(), k -> new ArrayList<>()).add(s);
                }
            }
            for (Map.Entry<SizeClass, List<Sample>> e : by.entrySet()) {
                long[] ns = e.getValue().stream().mapToLong(Sample::nanos).sorted().toArray();
                long b = e.getValue().stream().mapToLong(Sample::bytes).sum();
                sb.append(String.format(Locale.ROOT, "%-4s %-11s %8d %9.1f %9.1f %9.1f %9.1f%n", op,
                        e.getKey().label, ns.length, pct(ns, 50) / 1e6, pct(ns, 99) / 1e6, ns[ns.length - 1] / 1e6,
                        b / 1e6 / elapsed));
            }
        }
        sb.append(String.format(Locale.ROOT, "gateway requests by status: %s%n", byStatus));
        sb.append(String.format(Locale.ROOT, "LOAD-SUMMARY clients=%d duration=%ds ops=%d (put=%d get=%d) "
                        + "throughput=%.1f ops/s %.1f MB/s errors=%d get-mismatches=%d gets-verified=%d "
                        + "heap(-Xmx%s, max %d MiB): sampled-high-water=%d MiB live-after-gc-max=%d MiB "
                        + "pool-peaks-sum=%d MiB (%d samples)%n",
                clients, seconds, samples.size(), puts, gets, samples.size() / elapsed, bytes / 1e6 / elapsed,
                errorCount.get(), mismatches.get(), getsVerified.get(), heap, maxHeap >> 20,
                gw.maxHeapUsed() >> 20, gw.maxLiveAfterGc() >> 20, poolPeaks >> 20, gw.samples()));
        for (String e : errors) {
            sb.append("error: ").append(e).append('\n');
        }
        return sb.toString();
    }

    private static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] randomBytes(SplittableRandom rnd, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) rnd.nextInt();
        }
        return b;
    }

    /** A reproducible stream of random bytes that digests what it yields. */
    static final class RandomBody extends InputStream {
        private final SplittableRandom rnd;
        private final MessageDigest md = md5();
        private long remaining;
        private long word;
        private int wordBytes;
        private byte[] digest;

        RandomBody(long seed, long size) {
            this.rnd = new SplittableRandom(seed);
            this.remaining = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (remaining == 0) {
                if (digest == null) {
                    digest = md.digest();
                }
                return -1;
            }
            int n = (int) Math.min(len, remaining);
            for (int i = 0; i < n; i++) {
                if (wordBytes == 0) {
                    word = rnd.nextLong();
                    wordBytes = 8;
                }
                b[off + i] = (byte) word;
                word >>>= 8;
                wordBytes--;
            }
            md.update(b, off, n);
            remaining -= n;
            if (remaining == 0) {
                digest = md.digest();
            }
            return n;
        }

        /** The MD5 of the whole body, once it was read to the end; null before. */
        byte[] digest() {
            return digest;
        }

        /** The latest stream the SDK opened for one request. */
        static final class Opened {
            private volatile RandomBody body;

            InputStream open(long seed, long size) {
                RandomBody b = new RandomBody(seed, size);
                body = b;
                return b;
            }

            String md5Hex() {
                RandomBody b = body;
                byte[] d = b == null ? null : b.digest();
                if (d == null) {
                    throw new IllegalStateException("the request body was not read to the end");
                }
                return HexFormat.of().formatHex(d);
            }
        }
    }
}

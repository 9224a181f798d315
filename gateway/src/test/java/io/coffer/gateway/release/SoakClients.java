package io.coffer.gateway.release;

import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Clients of the soak and scale runs: each one bound to one gateway, writing, reading and deleting keys of its own
 * (so each client knows exactly what every one of its keys must hold), one AWS SDK v2 sync client per gateway with
 * no retries (every failure counts). Every GET is checked by MD5 against the key's last acknowledged content; a write
 * whose answer failed leaves both contents allowed. Every GET is also checked against its own ETag (all objects here
 * are single PUTs, whose ETag is their MD5): a body that is not what its ETag says is damage in the store or the read
 * path even when the key's history cannot tell (issue 22: an object read back with its chunks reordered, under the
 * ETag of what was written). {@link #verifyEverywhere} reads every key back through every gateway at the end.
 */
final class SoakClients implements AutoCloseable {
    static final String ABSENT = "absent";
    static final String BUCKET = "soak";

    /** What the clients do. */
    enum Workload {
        /** PUTs of fresh random objects (4 KiB–64 KiB 60 %, –1 MiB 30 %, –2 MiB 10 %), GETs and some DELETEs. */
        MIXED(0.40, 0.10),
        /** Overwrites of 64–256 KiB objects, half from a pool of 48 contents (chunks die and revive), some DELETEs. */
        OVERWRITE(0.80, 0.10);

        final double putShare;
        final double deleteShare;

        Workload(double putShare, double deleteShare) {
            this.putShare = putShare;
            this.deleteShare = deleteShare;
        }
    }

    enum Kind { PUT, GET, DELETE }

    /**
     * One acknowledged operation: through which gateway, when it started (System.nanoTime), how long it took and the
     * object bytes it moved.
     */
    record Sample(Kind kind, int gateway, long start, long nanos, long bytes) {
    }

    private static final int KEYS_PER_CLIENT = 40;
    private static final int POOL = 48;
    /** Threads reading the keys back at the end, per gateway. */
    private static final int VERIFIERS = 16;
    /** Writes remembered per key, to show what happened to a key found wrong. */
    private static final int HISTORY = 6;
    private final long started = System.nanoTime();

    private final Workload workload;
    private final String prefix;
    private final List<S3Client> s3 = new ArrayList<>();
    private final List<Client> clients = new ArrayList<>();
    private final AtomicLong errorCount = new AtomicLong();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong mismatches = new AtomicLong();
    private final AtomicLong etagMismatches = new AtomicLong();

    /** {@code perGateway.get(g)} clients through gateway {@code g}, on keys under {@code prefix}. */
    SoakClients(String prefix, List<URI> endpoints, List<Integer> perGateway, Workload workload) {
        this.prefix = prefix;
        this.workload = workload;
        int id = 0;
        for (int g = 0; g < endpoints.size(); g++) {
            s3.add(client(endpoints.get(g), perGateway.get(g) + 8));
            for (int i = 0; i < perGateway.get(g); i++) {
                clients.add(new Client(id++, g));
            }
        }
    }

    static void createBucket(URI endpoint) {
        try (S3Client c = client(endpoint, 2)) {
            c.createBucket(r -> r.bucket(BUCKET));
        }
    }

    /** Runs every client until {@code duration} has passed; returns the operations acknowledged meanwhile. */
    List<Sample> run(Duration duration) throws Exception {
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(clients.size());
        try {
            List<Future<List<Sample>>> runs = new ArrayList<>();
            for (Client c : clients) {
                runs.add(pool.submit(() -> c.run(deadline)));
            }
            List<Sample> all = new ArrayList<>();
            for (Future<List<Sample>> f : runs) {
                all.addAll(f.get());
            }
            return all;
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Reads every key every client touched through every gateway in {@code endpoints}; returns the keys (with the
     * gateway) whose content is not one the client may expect: lost or wrong objects.
     */
    List<String> verifyEverywhere(List<URI> endpoints) throws Exception {
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        Map<String, Set<String>> expected = new TreeMap<>();
        clients.forEach(c -> expected.putAll(c.allowed));
        ExecutorService pool = Executors.newFixedThreadPool(VERIFIERS);
        try {
            for (int g = 0; g < endpoints.size(); g++) {
                int gateway = g;
                try (S3Client reader = client(endpoints.get(g), VERIFIERS + 4)) {
                    List<Future<?>> reads = new ArrayList<>();
                    for (Map.Entry<String, Set<String>> e : expected.entrySet()) {
                        reads.add(pool.submit(() -> {
                            Read got = read(reader, e.getKey());
                            if (!e.getValue().contains(got.md5()) || !got.matchesEtag()) {
                                wrong.add(e.getKey() + " through gateway " + (gateway + 1) + ": " + got
                                        + ", want one of " + e.getValue() + "; its last writes: " + history(e.getKey()));
                            }
                        }));
                    }
                    for (Future<?> f : reads) {
                        f.get();
                    }
                }
            }
        } finally {
            pool.shutdown();
        }
        return List.copyOf(wrong);
    }

    private String history(String key) {
        for (Client c : clients) {
            if (c.history.containsKey(key)) {
                return String.valueOf(c.history.get(key));
            }
        }
        return "none";
    }

    /** Keys the clients touched. */
    int keys() {
        return clients.stream().mapToInt(c -> c.allowed.size()).sum();
    }

    long errorCount() {
        return errorCount.get();
    }

    /** The first 20 errors. */
    List<String> errors() {
        return List.copyOf(errors);
    }

    /** GETs during the run whose content was not the key's last acknowledged one, or not what their ETag says. */
    long mismatches() {
        return mismatches.get();
    }

    /** Of {@link #mismatches}, the GETs whose body's MD5 was not their own ETag. */
    long etagMismatches() {
        return etagMismatches.get();
    }

    private void fail(String message) {
        if (errorCount.incrementAndGet() <= 20) {
            errors.add(message);
        }
    }

    private final class Client {
        final int id;
        final int gateway;
        /** Key to the contents (MD5 or ABSENT) a read may return: one after an acknowledged write. */
        final Map<String, Set<String>> allowed = new TreeMap<>();
        /** Key to its last writes (kind, MD5, size, start and end in ms of the run, request id), for a wrong key. */
        final Map<String, ArrayDeque<String>> history = new TreeMap<>();
        final SplittableRandom rnd;

        Client(int id, int gateway) {
            this.id = id;
            this.gateway = gateway;
            this.rnd = new SplittableRandom(0x5eed + id);
        }

        List<Sample> run(long deadline) {
            List<Sample> samples = new ArrayList<>();
            S3Client c = s3.get(gateway);
            while (System.nanoTime() < deadline) {
                String key = prefix + "/c" + id + "/k" + rnd.nextInt(KEYS_PER_CLIENT);
                Set<String> before = allowed.computeIfAbsent(key, k -> new LinkedHashSet<>(List.of(ABSENT)));
                double x = rnd.nextDouble();
                long t0 = System.nanoTime();
                Kind kind = x < workload.putShare ? Kind.PUT
                        : x < workload.putShare + workload.deleteShare ? Kind.DELETE : Kind.GET;
                String next = null;
                long bytes = 0;
                try {
                    switch (kind) {
                        case PUT -> {
                            byte[] body = body();
                            next = md5(body);
                            bytes = body.length;
                            remember(key, "PUT " + next + " " + body.length, t0, c.putObject(r -> r.bucket(BUCKET)
                                    .key(key), RequestBody.fromBytes(body)).responseMetadata().requestId());
                        }
                        case DELETE -> {
                            next = ABSENT;
                            remember(key, "DELETE", t0, c.deleteObject(r -> r.bucket(BUCKET).key(key))
                                    .responseMetadata().requestId());
                        }
                        case GET -> {
                            Read got = read(c, key);
                            bytes = got.size();
                            if (!before.contains(got.md5()) || !got.matchesEtag()) {
                                mismatches.incrementAndGet();
                                if (!got.matchesEtag()) {
                                    etagMismatches.incrementAndGet();
                                }
                                fail("GET " + key + " through gateway " + (gateway + 1) + ": " + got + ", want "
                                        + before);
                                continue;
                            }
                        }
                        default -> throw new IllegalStateException();
                    }
                    if (next != null) {
                        allowed.put(key, new LinkedHashSet<>(List.of(next)));
                    }
                    samples.add(new Sample(kind, gateway, t0, System.nanoTime() - t0, bytes));
                } catch (RuntimeException e) {
                    if (next != null) {
                        before.add(next);
                    }
                    fail(kind + " " + key + " through gateway " + (gateway + 1) + ": " + e);
                }
            }
            return samples;
        }

        private void remember(String key, String what, long t0, String requestId) {
            ArrayDeque<String> h = history.computeIfAbsent(key, k -> new ArrayDeque<>());
            h.addLast(String.format(Locale.ROOT, "%s at %d-%d ms request %s through gateway %d", what,
                    (t0 - started) / 1_000_000, (System.nanoTime() - started) / 1_000_000, requestId, gateway + 1));
            if (h.size() > HISTORY) {
                h.removeFirst();
            }
        }

        private byte[] body() {
            if (workload == Workload.OVERWRITE) {
                if (rnd.nextBoolean()) {
                    int pooled = rnd.nextInt(POOL); // one size per pooled content: equal objects, equal chunks
                    return bytes(pooled, (64 << 10) + pooled * 4096);
                }
                return bytes(rnd.nextLong(), (64 << 10) + rnd.nextInt(192 << 10));
            }
            double x = rnd.nextDouble();
            int size = x < 0.6 ? (4 << 10) + rnd.nextInt(60 << 10)
                    : x < 0.9 ? (64 << 10) + rnd.nextInt(960 << 10) : (1 << 20) + rnd.nextInt(1 << 20);
            return bytes(rnd.nextLong(), size);
        }
    }

    private static byte[] bytes(long seed, int size) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /**
     * What a GET returned: the body's MD5 (or {@link #ABSENT}), its length, the ETag the gateway answered (unquoted;
     * null when absent) and the request id.
     */
    record Read(String md5, long size, String etag, String requestId) {
        /** Whether the body is what its ETag says (a single PUT's ETag is its MD5); true when absent. */
        boolean matchesEtag() {
            return etag == null || etag.equals(md5);
        }

        @Override
        public String toString() {
            if (etag == null) {
                return md5;
            }
            return md5 + " (" + size + " bytes, ETag " + etag + (matchesEtag() ? "" : ": NOT the body's MD5")
                    + ", request " + requestId + ")";
        }
    }

    static Read read(S3Client c, String key) {
        try {
            ResponseBytes<GetObjectResponse> r = c.getObjectAsBytes(g -> g.bucket(BUCKET).key(key));
            byte[] data = r.asByteArray();
            String etag = r.response().eTag();
            return new Read(md5(data), data.length, etag == null ? "" : etag.replace("\"", ""),
                    r.response().responseMetadata().requestId());
        } catch (NoSuchKeyException e) {
            return new Read(ABSENT, 0, null, e.requestId());
        }
    }

    static String md5(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static S3Client client(URI endpoint, int connections) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        StockClients.ACCESS_KEY, StockClients.SECRET_KEY)))
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(connections)
                        .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofMinutes(2)))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    @Override
    public void close() {
        s3.forEach(S3Client::close);
    }
}

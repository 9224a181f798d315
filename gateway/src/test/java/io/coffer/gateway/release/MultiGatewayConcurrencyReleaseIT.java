package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.testing.PostgresServer;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Several {@code ./coffer serve} processes (the launcher) on one S3 backend (s3proxy), one PostgreSQL database and one
 * master-key file, driven at once by the AWS SDK with its default settings: conditional writes and multipart
 * completes racing through two gateways have exactly one winner, and concurrent PUT, multipart (parts through any
 * gateway), copy, overwrite, delete and GET through three gateways, one of them killed with SIGKILL in the middle of
 * an upload, lose no acknowledged write: every key reads back from every gateway (the killed one restarted) as its
 * last acknowledged content, or, where the write's answer was lost with the gateway, as that or the content before.
 * {@code ./coffer fsck} on the store is clean afterwards.
 */
class MultiGatewayConcurrencyReleaseIT {
    private static final String ABSENT = "absent";
    private static final int WORKERS = 6;
    private static final int KEYS_PER_WORKER = 6;

    @TempDir
    static Path scratch;
    private static List<String> flags;
    private static Map<String, String> env;
    private static ShippedGateway a;
    private static ShippedGateway b;

    @BeforeAll
    static void startTwoGateways() throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        PostgresServer pg = PostgresServer.get();
        String database = pg.createDatabase("multigw_race_" + ProcessHandle.current().pid());
        flags = List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(), "--s3-bucket",
                s3.createBucket(), "--s3-path-style", "--metadata", database, "--master-key",
                scratch.resolve("master.key").toString());
        env = Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(), "COFFER_BACKEND_SECRET_KEY", s3.secretKey(),
                "COFFER_METADATA_USER", pg.user(), "COFFER_METADATA_PASSWORD", pg.password());
        a = ShippedGateway.start(Files.createDirectory(scratch.resolve("a")), flags, env);
        b = ShippedGateway.start(Files.createDirectory(scratch.resolve("b")), flags, env);
        try (S3Client c = client(a.endpoint())) {
            c.createBucket(r -> r.bucket("race"));
            c.createBucket(r -> r.bucket("load"));
        }
    }

    @AfterAll
    static void stopGateways() throws Exception {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    @Test
    void conditionalWritesAndMultipartCompletesRacingThroughTwoGatewaysHaveExactlyOneWinner() throws Exception {
        List<S3Client> clients = List.of(client(a.endpoint()), client(b.endpoint()));
        for (int round = 0; round < 4; round++) {
            String key = "put-if-none-match-" + round;
            int winner = race(8, i -> clients.get(i % 2).putObject(r -> r.bucket("race").key(key).ifNoneMatch("*"),
                    RequestBody.fromString("writer " + i)));
            assertEverywhere(clients, key, "writer " + winner);

            String etag = clients.get(0).headObject(r -> r.bucket("race").key(key)).eTag();
            int matched = race(8, i -> clients.get(i % 2).putObject(r -> r.bucket("race").key(key).ifMatch(etag),
                    RequestBody.fromString("if-match writer " + i)));
            assertEverywhere(clients, key, "if-match writer " + matched);

            String mpKey = "complete-if-none-match-" + round;
            List<String> uploads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                S3Client c = clients.get(i % 2);
                String id = c.createMultipartUpload(r -> r.bucket("race").key(mpKey)).uploadId();
                String partEtag = clients.get((i + 1) % 2).uploadPart(r -> r.bucket("race").key(mpKey)
                        .uploadId(id).partNumber(1), RequestBody.fromString("upload " + i)).eTag();
                uploads.add(id + " " + partEtag);
            }
            int completed = race(4, i -> clients.get(i % 2).completeMultipartUpload(r -> r.bucket("race").key(mpKey)
                    .uploadId(uploads.get(i).split(" ")[0]).ifNoneMatch("*").multipartUpload(u -> u.parts(
                            CompletedPart.builder().partNumber(1).eTag(uploads.get(i).split(" ")[1]).build()))));
            assertEverywhere(clients, mpKey, "upload " + completed);
        }
        clients.forEach(S3Client::close);
    }

    @Test
    void concurrentWritesThroughThreeGatewaysLoseNothingWhenOneIsKilledMidUpload() throws Exception {
        Path cDir = Files.createDirectory(scratch.resolve("c"));
        ShippedGateway c = ShippedGateway.start(cDir, flags, env);
        List<S3Client> clients = List.of(client(a.endpoint()), client(b.endpoint()), client(c.endpoint()));
        AtomicBoolean cAlive = new AtomicBoolean(true);
        AtomicBoolean stop = new AtomicBoolean();
        Map<String, List<String>> allowed = new ConcurrentHashMap<>();
        List<String> unexpected = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS + 1);
        List<Future<Integer>> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            workers.add(pool.submit(new Worker(w, clients, cAlive, stop, allowed, unexpected)));
        }
        // an upload through c that is still sending its body when c is killed: it must leave nothing behind
        CountDownLatch sending = new CountDownLatch(1);
        Future<?> victim = pool.submit(() -> clients.get(2).putObject(r -> r.bucket("load").key("victim"),
                RequestBody.fromInputStream(new SlowStream(sending), SlowStream.LENGTH)));
        Thread.sleep(8_000);
        assertThat(sending.await(60, TimeUnit.SECONDS)).as("the upload through c started").isTrue();
        cAlive.set(false);
        c.kill();
        Thread.sleep(6_000);
        stop.set(true);
        int ops = 0;
        for (Future<Integer> f : workers) {
            ops += f.get(5, TimeUnit.MINUTES);
        }
        assertThat(victim).failsWithin(Duration.ofMinutes(2));
        pool.shutdown();
        assertThat(unexpected).as("failures through the gateways that stayed up").isEmpty();
        assertThat(ops).as("operations done").isGreaterThan(WORKERS * 3);
        System.out.printf("[multi-gateway] %d operations; %d of %d keys left with two possible contents by the kill%n",
                ops, allowed.values().stream().filter(v -> v.size() > 1).count(), allowed.size());

        try (ShippedGateway restarted = ShippedGateway.start(cDir, flags, env);
             S3Client viaC = client(restarted.endpoint())) {
            List<S3Client> readers = List.of(clients.get(0), clients.get(1), viaC);
            for (S3Client reader : readers) {
                for (Map.Entry<String, List<String>> e : allowed.entrySet()) {
                    assertThat(allowed.get(e.getKey())).as(e.getKey()).contains(md5OrAbsent(reader, e.getKey()));
                }
                assertThat(md5OrAbsent(reader, "victim")).as("the killed upload").isEqualTo(ABSENT);
            }
        }
        Path fsckDir = Files.createDirectory(scratch.resolve("fsck"));
        List<String> args = new ArrayList<>(List.of("fsck", "--data", "data"));
        args.addAll(flags);
        StockClients.Result fsck = ShippedGateway.launcher(fsckDir, env, args.toArray(String[]::new));
        assertThat(fsck.exitCode()).as("fsck: %s%s", fsck.stdout(), fsck.stderr()).isZero();
        assertThat(fsck.stdout()).contains("damaged: 0").containsPattern("(?m)^clean$");
        clients.forEach(S3Client::close);
    }

    /** One writer's loop over its own keys, through a random live gateway per request; returns its op count. */
    private record Worker(int id, List<S3Client> clients, AtomicBoolean cAlive, AtomicBoolean stop,
                          Map<String, List<String>> allowed, List<String> unexpected) implements Callable<Integer> {
        @Override
        public Integer call() {
            Random rnd = new Random(id);
            int ops = 0;
            for (int k = 0; k < KEYS_PER_WORKER; k++) {
                allowed.put(key(k), new ArrayList<>(List.of(ABSENT)));
            }
            while (!stop.get()) {
                String key = key(rnd.nextInt(KEYS_PER_WORKER));
                int g = rnd.nextInt(cAlive.get() ? 3 : 2);
                S3Client c = clients.get(g);
                int op = rnd.nextInt(10);
                String next = null;
                boolean[] throughC = {g == 2};
                try {
                    if (op < 3) {
                        byte[] body = bytes(rnd, 1 + rnd.nextInt(op == 0 ? 3 << 20 : 64 << 10));
                        next = md5(body);
                        c.putObject(r -> r.bucket("load").key(key), RequestBody.fromBytes(body));
                    } else if (op == 3) {
                        next = multipart(rnd, key, g, throughC);
                    } else if (op == 4) {
                        String source = key(rnd.nextInt(KEYS_PER_WORKER));
                        List<String> sourceState = allowed.get(source);
                        if (sourceState.size() != 1 || sourceState.get(0).equals(ABSENT) || source.equals(key)) {
                            continue;
                        }
                        next = sourceState.get(0);
                        c.copyObject(r -> r.sourceBucket("load").sourceKey(source).destinationBucket("load")
                                .destinationKey(key));
                    } else if (op == 5) {
                        next = ABSENT;
                        c.deleteObject(r -> r.bucket("load").key(key));
                    } else {
                        List<String> want = allowed.get(key);
                        String got = md5OrAbsent(c, key);
                        if (!want.contains(got)) {
                            unexpected.add("GET " + key + " through gateway " + g + ": " + got + ", want " + want);
                        }
                        ops++;
                        continue;
                    }
                    allowed.put(key, new ArrayList<>(List.of(next)));
                } catch (SdkException | IllegalStateException e) {
                    if (next != null) {
                        allowed.get(key).add(next);
                    }
                    if (!throughC[0]) {
                        unexpected.add("op " + op + " on " + key + " through gateway " + g + ": " + e);
                    }
                }
                ops++;
            }
            return ops;
        }

        private String key(int k) {
            return "w" + id + "/k" + k;
        }

        /**
         * Two parts, each uploaded through a random live gateway, completed through gateway {@code g}; sets
         * {@code throughC[0]} when a part goes through the gateway that is killed.
         */
        private String multipart(Random rnd, String key, int g, boolean[] throughC) {
            byte[] first = bytes(rnd, 5 << 20);
            byte[] second = bytes(rnd, 1 + rnd.nextInt(200_000));
            String id = clients.get(g).createMultipartUpload(r -> r.bucket("load").key(key)).uploadId();
            List<CompletedPart> parts = new ArrayList<>();
            byte[][] bodies = {first, second};
            for (int p = 1; p <= 2; p++) {
                int part = p;
                int viaIndex = rnd.nextInt(cAlive.get() ? 3 : 2);
                throughC[0] |= viaIndex == 2;
                S3Client via = clients.get(viaIndex);
                String etag = via.uploadPart(r -> r.bucket("load").key(key).uploadId(id).partNumber(part),
                        RequestBody.fromBytes(bodies[part - 1])).eTag();
                parts.add(CompletedPart.builder().partNumber(part).eTag(etag).build());
            }
            String whole = md5(first, second);
            // a gateway killed after the commit loses the answer, not the object: either content may read back
            allowed.get(key).add(whole);
            clients.get(g).completeMultipartUpload(r -> r.bucket("load").key(key).uploadId(id)
                    .multipartUpload(u -> u.parts(parts)));
            return whole;
        }
    }

    /** A body that sends 64 KiB every 50 ms (about 20 s for its length), counting down once it has started. */
    private static final class SlowStream extends InputStream {
        static final long LENGTH = 24L << 20;
        private final CountDownLatch started;
        private long sent;

        SlowStream(CountDownLatch started) {
            this.started = started;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buf, int off, int len) {
            if (sent >= LENGTH) {
                return -1;
            }
            started.countDown();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
            int n = (int) Math.min(Math.min(len, 64 << 10), LENGTH - sent);
            Arrays.fill(buf, off, off + n, (byte) (sent >>> 16));
            sent += n;
            return n;
        }
    }

    /**
     * Runs {@code n} attempts at once (released together); exactly one must succeed and every other fail with 412
     * Precondition Failed or 409 ConditionalRequestConflict, as S3 answers a lost race. Returns the winner's index.
     */
    private static int race(int n, RaceAttempt attempt) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            results.add(pool.submit(() -> {
                go.await();
                try {
                    attempt.run(index);
                    return 200;
                } catch (S3Exception e) {
                    return e.statusCode();
                }
            }));
        }
        go.countDown();
        List<Integer> winners = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int status = results.get(i).get(2, TimeUnit.MINUTES);
            assertThat(status).as("attempt %d", i).isIn(200, 409, 412);
            if (status == 200) {
                winners.add(i);
            }
        }
        pool.shutdown();
        assertThat(winners).as("winners").hasSize(1);
        return winners.get(0);
    }

    @FunctionalInterface
    private interface RaceAttempt {
        void run(int index);
    }

    private static void assertEverywhere(List<S3Client> clients, String key, String content) {
        for (S3Client c : clients) {
            assertThat(c.getObjectAsBytes(r -> r.bucket("race").key(key)).asUtf8String()).as(key).isEqualTo(content);
        }
    }

    private static String md5OrAbsent(S3Client c, String key) {
        try {
            return md5(c.getObjectAsBytes(r -> r.bucket("load").key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return ABSENT;
        }
    }

    private static byte[] bytes(Random rnd, int size) {
        byte[] b = new byte[size];
        rnd.nextBytes(b);
        return b;
    }

    private static String md5(byte[]... data) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            for (byte[] d : data) {
                md5.update(d);
            }
            return HexFormat.of().formatHex(md5.digest());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static S3Client client(URI endpoint) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        StockClients.ACCESS_KEY, StockClients.SECRET_KEY))).build();
    }
}

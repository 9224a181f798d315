package io.coffer.benchmarks.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The work measured through each {@link Target}: single-stream PUT then GET of large objects (MB/s per object, every
 * GET checked against the PUT's MD5 outside the timed part), and 4 KiB PUT then GET with N threads for a fixed time
 * (ops/s, p50/p99), each PUT a fresh key and fresh random bytes; samples and server CPU go into the target.
 */
final class Workload {
    private static final int SMALL = 4096;

    private final int size;
    private final int threads;

    /** {@code size}: bytes per large object; {@code threads}: concurrent clients in the 4 KiB phases. */
    Workload(int size, int threads) {
        this.size = size;
        this.threads = threads;
    }

    /** PUTs {@code n} objects, then GETs them; {@code fresh}: new random bytes each, else one body repeated. */
    void large(Target t, int n, boolean record, boolean fresh) throws IOException {
        byte[] data = new byte[size];
        byte[] buf = new byte[size];
        List<String> keys = new ArrayList<>();
        List<byte[]> md5s = new ArrayList<>();
        if (!fresh) {
            fill(data, 0x5eed_dedfL);
            String key = t.nextKey("dedup-prime");
            t.client.putObject(r -> r.bucket(t.bucket).key(key).contentLength((long) size),
                    RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data), size,
                            "application/octet-stream"));
        }
        for (int i = 0; i < n; i++) {
            if (fresh) {
                fill(data, ThreadLocalRandom.current().nextLong());
            }
            String key = t.nextKey(fresh ? "large" : "dedup");
            double cpu0 = t.serverCpuSeconds();
            double front0 = t.frontCpuSeconds();
            long t0 = System.nanoTime();
            t.client.putObject(r -> r.bucket(t.bucket).key(key).contentLength((long) size),
                    RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data), size,
                            "application/octet-stream"));
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = t.serverCpuSeconds() - cpu0;
            double front = t.frontCpuSeconds() - front0;
            if (record) {
                (fresh ? t.putMBps : t.dedupPutMBps).add(size / 1e6 / secs);
                t.addCpu(fresh ? "put-large" : "put-dedup", cpu, size / 1e6);
                t.addCpu(fresh ? "put-large-front" : "put-dedup-front", front, size / 1e6);
            }
            keys.add(key);
            md5s.add(md5(data, size));
        }
        if (!fresh) {
            return;
        }
        for (int i = 0; i < n; i++) {
            String key = keys.get(i);
            double cpu0 = t.serverCpuSeconds();
            double front0 = t.frontCpuSeconds();
            long t0 = System.nanoTime();
            int got;
            try (ResponseInputStream<GetObjectResponse> in = t.client.getObject(r -> r.bucket(t.bucket).key(key))) {
                got = in.readNBytes(buf, 0, size);
                if (in.read() >= 0) {
                    throw new IllegalStateException(t.name + ": GET " + key + " returned more than " + size);
                }
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = t.serverCpuSeconds() - cpu0;
            double front = t.frontCpuSeconds() - front0;
            if (got != size || !Arrays.equals(md5(buf, got), md5s.get(i))) {
                throw new IllegalStateException(t.name + ": GET " + key + " returned other bytes than were PUT");
            }
            if (record) {
                t.getMBps.add(size / 1e6 / secs);
                t.addCpu("get-large", cpu, size / 1e6);
                t.addCpu("get-large-front", front, size / 1e6);
            }
        }
    }

    /** 4 KiB PUTs of fresh keys and bytes for {@code seconds}, then GETs of those keys for as long. */
    void small(Target t, int seconds, boolean record) throws Exception {
        Map<String, byte[]> stored = new ConcurrentHashMap<>();
        List<String> keys = Collections.synchronizedList(new ArrayList<>());
        String prefix = t.nextKey("small");
        AtomicLong counter = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (boolean put : new boolean[] {true, false}) {
                double cpu0 = t.serverCpuSeconds();
                long start = System.nanoTime();
                long deadline = start + Duration.ofSeconds(seconds).toNanos();
                List<String> snapshot = put ? null : List.copyOf(keys);
                List<Future<long[]>> futures = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    futures.add(pool.submit(() -> {
                        long[] lat = new long[1024];
                        int n = 0;
                        SplittableRandom rnd = new SplittableRandom(ThreadLocalRandom.current().nextLong());
                        while (System.nanoTime() < deadline) {
                            long t0;
                            if (put) {
                                byte[] body = new byte[SMALL];
                                fill(body, rnd.nextLong());
                                String key = prefix + "/" + counter.incrementAndGet();
                                t0 = System.nanoTime();
                                t.client.putObject(r -> r.bucket(t.bucket).key(key), RequestBody.fromBytes(body));
                                stored.put(key, body);
                                keys.add(key);
                            } else {
                                String key = snapshot.get(rnd.nextInt(snapshot.size()));
                                t0 = System.nanoTime();
                                byte[] got = t.client.getObjectAsBytes(r -> r.bucket(t.bucket).key(key))
                                        .asByteArrayUnsafe();
                                if (!Arrays.equals(got, stored.get(key))) {
                                    throw new IllegalStateException(t.name + ": GET " + key + " differs");
                                }
                            }
                            if (n == lat.length) {
                                lat = Arrays.copyOf(lat, n * 2);
                            }
                            lat[n++] = System.nanoTime() - t0;
                        }
                        return Arrays.copyOf(lat, n);
                    }));
                }
                List<Long> all = new ArrayList<>();
                for (Future<long[]> f : futures) {
                    for (long v : f.get()) {
                        all.add(v);
                    }
                }
                double secs = (System.nanoTime() - start) / 1e9;
                double cpu = t.serverCpuSeconds() - cpu0;
                if (record && !all.isEmpty()) {
                    long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
                    (put ? t.smallPutOps : t.smallGetOps).add(sorted.length / secs);
                    (put ? t.smallPutP50 : t.smallGetP50).add(pct(sorted, 50) / 1e6);
                    (put ? t.smallPutP99 : t.smallGetP99).add(pct(sorted, 99) / 1e6);
                    t.addCpu(put ? "put-small" : "get-small", cpu, sorted.length);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** Fills {@code b} with random bytes from {@code seed} (SplittableRandom, 8 bytes at a time). */
    static void fill(byte[] b, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        while (bb.remaining() >= 8) {
            bb.putLong(rnd.nextLong());
        }
        while (bb.hasRemaining()) {
            bb.put((byte) rnd.nextInt());
        }
    }

    private static byte[] md5(byte[] b, int n) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(b, 0, n);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.coffer.sdk.engine;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs in a child JVM that the crash tests kill with SIGKILL. It writes in a loop and prints a line only after an
 * operation returned: "COMMITTED key seed size" after a put or a multipart completion, "DELETING key" before and
 * "DELETED key" after a delete. Whatever it printed as committed must survive the kill.
 *
 * <p>Modes: {@code put DIR START}, {@code multipart DIR START}, {@code gc DIR START}, {@code small DIR START} (small
 * objects from four threads at once), {@code versioned DIR START} (overwrites of four keys in a bucket with versioning
 * enabled, each followed by tag changes of the new version and of the one before it, which keep their ids, and each
 * fifth by a delete that adds a delete marker; "COMMITTED key@versionId seed size": every
 * version must survive); {@code locked DIR START} (COMPLIANCE-locked versions in a bucket with Object Lock, each
 * followed by a refused delete with the governance bypass and a legal hold turned on and off: every version must
 * survive with its lock, "DELETED-LOCKED" would be a broken lock); {@code large DIR BYTES}
 * writes and reads back one object of BYTES bytes streamed with unknown length and exits 0 if it matches.
 */
public final class CrashWorkload {
    private CrashWorkload() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        long start = Long.parseLong(args[2]);
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        try (Coffer c = Coffer.builder().directory(dir).minPartSize(1 << 20).gcGrace(Duration.ZERO).build()) {
            if (mode.equals("large")) {
                large(c, start, out);
                return;
            }
            if (c.listBuckets().isEmpty()) {
                c.createBucket("crash", "t", null, mode.equals("locked"));
            }
            if (mode.equals("versioned")) {
                c.putBucketVersioning(c.headBucket("crash"), BucketVersioning.ENABLED);
            }
            out.println("READY");
            if (mode.equals("small")) {
                smallPutsOnFourThreads(c, start, out);
                return;
            }
            SplittableRandom r = new SplittableRandom(start);
            List<String> live = new ArrayList<>();
            for (long i = start; ; i++) {
                String key = "k" + i;
                int size = r.nextInt(1, 3 << 20);
                switch (mode) {
                    case "put" -> {
                        c.putObject(PutObjectRequest.of("crash", key, size), TestData.stream(i, size));
                        out.println("COMMITTED " + key + " " + i + " " + size);
                    }
                    case "versioned" -> {
                        String versioned = "v" + (i % 4);
                        String id = c.putObject(PutObjectRequest.of("crash", versioned, size), TestData.stream(i, size))
                                .versionId();
                        out.println("COMMITTED " + versioned + "@" + id + " " + i + " " + size);
                        // tags of the current version and of the one before it change in place (issue 21): each
                        // keeps its id, so a kill anywhere in these leaves every id printed above readable
                        Bucket vb = c.headBucket("crash");
                        c.putObjectTags(vb, versioned, Map.of("n", Long.toString(i)));
                        List<ObjectVersion> older = c.listObjectVersions("crash", versioned, null, null, null, 2)
                                .versions();
                        if (older.size() == 2 && !older.get(1).deleteMarker()) {
                            c.putObjectTags(vb, versioned, older.get(1).versionId(), Map.of("older", "yes"));
                        }
                        if (i % 5 == 4) {
                            c.deleteObject("crash", versioned);
                        }
                    }
                    case "locked" -> {
                        // a COMPLIANCE-locked version, then a delete of it with the bypass (refused) and a legal hold
                        // turned on and off (its record rewritten in place), so that kills land in each
                        String locked = "l" + (i % 4);
                        String id = c.putObject(PutObjectRequest.of("crash", locked, size), TestData.stream(i, size),
                                new ObjectLock(ObjectLockMode.COMPLIANCE, Instant.now().plus(Duration.ofDays(1)),
                                        false)).versionId();
                        out.println("COMMITTED " + locked + "@" + id + " " + i + " " + size);
                        Bucket b = c.headBucket("crash");
                        try {
                            c.deleteObjectVersion(b, locked, id, null, true);
                            out.println("DELETED-LOCKED " + locked + "@" + id);
                        } catch (CofferException e) {
                            out.println("REFUSED " + locked + "@" + id + " " + e.code());
                        }
                        c.putObjectLegalHold(b, locked, id, true);
                        c.putObjectLegalHold(b, locked, id, false);
                    }
                    case "multipart" -> {
                        // upload the parts of a batch of objects first, then complete them back to back, so that
                        // a kill lands inside a completion more often than not
                        List<Object[]> batch = new ArrayList<>();
                        for (long j = i; j < i + 8; j++) {
                            String k = "k" + j;
                            String id = c.createMultipartUpload("crash", k);
                            int partSize = 1 << 20;
                            int total = 2 * partSize + r.nextInt(1, partSize);
                            InputStream data = TestData.stream(j, total);
                            List<CompletedPart> parts = new ArrayList<>();
                            for (int p = 1; p <= 3; p++) {
                                int len = p < 3 ? partSize : total - 2 * partSize;
                                String etag = c.uploadPart("crash", k, id, p, len,
                                        new ByteArrayInputStream(data.readNBytes(len))).etag();
                                parts.add(new CompletedPart(p, etag));
                            }
                            batch.add(new Object[] {k, id, parts, j, total});
                        }
                        out.println("COMPLETING");
                        for (Object[] u : batch) {
                            @SuppressWarnings("unchecked")
                            List<CompletedPart> parts = (List<CompletedPart>) u[2];
                            c.completeMultipartUpload("crash", (String) u[0], (String) u[1], parts);
                            out.println("COMMITTED " + u[0] + " " + u[3] + " " + u[4]);
                        }
                        i += 7;
                    }
                    case "gc" -> {
                        c.putObject(PutObjectRequest.of("crash", key, size), TestData.stream(i, size));
                        out.println("COMMITTED " + key + " " + i + " " + size);
                        live.add(key);
                        if (live.size() > 3) {
                            String victim = live.remove(r.nextInt(live.size()));
                            out.println("DELETING " + victim);
                            c.deleteObject("crash", victim);
                            out.println("DELETED " + victim);
                        }
                        c.collectGarbage();
                    }
                    default -> throw new IllegalArgumentException(mode);
                }
            }
        }
    }

    /**
     * Four threads putting small objects (their bytes travel inside the manifest), so that their metadata commits
     * queue behind each other and are committed in shared transactions when the kill lands.
     */
    private static void smallPutsOnFourThreads(Coffer c, long start, PrintStream out) throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Void>> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long first = start + t;
            Callable<Void> puts = () -> {
                SplittableRandom r = new SplittableRandom(first);
                for (long i = first; ; i += threads) {
                    int size = r.nextInt(1, 8 << 10);
                    c.putObject(PutObjectRequest.of("crash", "k" + i, size), TestData.stream(i, size));
                    out.println("COMMITTED k" + i + " " + i + " " + size);
                }
            };
            running.add(pool.submit(puts));
        }
        for (Future<Void> f : running) {
            f.get(); // the threads run until the kill; a failure ends the child with its stack trace
        }
    }

    private static void large(Coffer c, long bytes, PrintStream out) throws Exception {
        c.createBucket("large", "t");
        var info = c.putObject(PutObjectRequest.of("large", "big", -1), TestData.stream(99, bytes));
        String expected = TestData.md5Hex(TestData.stream(99, bytes));
        if (!info.etag().equals(expected) || info.size() != bytes) {
            out.println("MISMATCH on write");
            System.exit(3);
        }
        try (ObjectContent content = c.getObject("large", "big")) {
            if (!TestData.md5Hex(content.stream()).equals(expected)) {
                out.println("MISMATCH on read");
                System.exit(4);
            }
        }
        out.println("OK " + Runtime.getRuntime().maxMemory());
    }
}

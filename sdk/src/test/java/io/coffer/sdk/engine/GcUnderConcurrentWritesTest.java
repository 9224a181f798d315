package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.PostgresServer;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines on one metadata store (SQLite, PostgreSQL) and one backend directory (two gateways' worth) while writers keep putting,
 * overwriting and deleting the same few contents through both, and both engines collect garbage in a loop: every
 * write succeeds, every acknowledged object reads back byte-exact from both engines, during the run and after the
 * dead space is gone, and fsck is clean.
 */
class GcUnderConcurrentWritesTest {
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Duration RUN = Duration.ofSeconds(6);
    private static final int SIZE = 200_000;
    private static final int CONTENTS = 6;
    private static final int WRITERS = 2;
    private static final int KEYS_PER_WRITER = 3;

    @TempDir
    Path dir;

    @Test
    void collectingInALoopLosesNoAcknowledgedObjectAndFailsNoWriteOnSqlite() throws Exception {
        MasterKey key = MasterKey.loadOrCreate(dir.resolve("master.key"));
        try (Coffer a = engine(key, JdbcMetadataStore.sqlite(dir.resolve("coffer.db")));
             Coffer b = engine(key, JdbcMetadataStore.sqlite(dir.resolve("coffer.db")))) {
            writeAndCollect(a, b);
        }
    }

    @Test
    void collectingInALoopLosesNoAcknowledgedObjectAndFailsNoWriteOnPostgres() throws Exception {
        MasterKey key = MasterKey.loadOrCreate(dir.resolve("master.key"));
        PostgresServer pg = PostgresServer.get();
        String db = pg.createDatabase("gc_loop");
        try (Coffer a = engine(key, JdbcMetadataStore.postgres(db, pg.user(), pg.password()));
             Coffer b = engine(key, JdbcMetadataStore.postgres(db, pg.user(), pg.password()))) {
            writeAndCollect(a, b);
        }
    }

    private void writeAndCollect(Coffer a, Coffer b) throws Exception {
        a.createBucket("bkt", "t");
        List<Coffer> engines = List.of(a, b);
        Map<String, Long> acknowledged = new ConcurrentHashMap<>(); // key -> content seed; -1: deleted
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong freed = new AtomicLong();
        AtomicInteger passes = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();

        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            threads.add(new Thread(() -> write(writer, engines, acknowledged, problems, stop, writes)));
        }
        for (Coffer engine : engines) {
            threads.add(new Thread(() -> collect(engine, problems, stop, freed, passes)));
        }
        threads.forEach(Thread::start);
        Thread.sleep(RUN.toMillis());
        stop.set(true);
        for (Thread t : threads) {
            t.join(60_000);
        }

        assertThat(problems).isEmpty();
        assertThat(writes.get()).isGreaterThan(10);
        assertThat(passes.get()).isPositive();
        assertEveryAcknowledgedObject(engines, acknowledged);
        assertThat(a.fsck(true).clean()).isTrue();

        // Whether a pack died while the writers ran depends on how many writes the machine allowed (their contents
        // are shared, so most packs stay live): a content no writer uses, stored and deleted now, gives the passes
        // below a dead pack to free in any case.
        a.putObject(PutObjectRequest.of("bkt", "gc-victim", SIZE), TestData.stream(CONTENTS + 1000L, SIZE));
        b.deleteObject("bkt", "gc-victim");
        // every dead pack retired and then deleted: what is left must still be whole
        Thread.sleep(GRACE.toMillis() + 100);
        freed.addAndGet(b.collectGarbage().bytesFreed());
        Thread.sleep(GRACE.toMillis() + 100);
        freed.addAndGet(a.collectGarbage().bytesFreed());
        assertThat(freed.get()).as("bytes freed by every pass").isPositive();
        assertEveryAcknowledgedObject(engines, acknowledged);
        assertThat(b.fsck(true).clean()).isTrue();
    }

    /** Puts or deletes its own keys, with contents all writers share, through either engine; reads each put back. */
    private static void write(int writer, List<Coffer> engines, Map<String, Long> acknowledged,
                              ConcurrentLinkedQueue<String> problems, AtomicBoolean stop, AtomicInteger writes) {
        Random random = new Random(writer);
        while (!stop.get()) {
            String key = "w" + writer + "-" + random.nextInt(KEYS_PER_WRITER);
            int via = random.nextInt(engines.size());
            try {
                if (random.nextInt(10) < 3) {
                    engines.get(via).deleteObject("bkt", key);
                    acknowledged.put(key, -1L);
                } else {
                    long seed = random.nextInt(CONTENTS);
                    engines.get(via).putObject(PutObjectRequest.of("bkt", key, SIZE), TestData.stream(seed, SIZE));
                    acknowledged.put(key, seed);
                    byte[] back = read(engines.get(1 - via), key);
                    if (!Arrays.equals(back, TestData.bytes(seed, SIZE))) {
                        problems.add(key + " read back different bytes through the other engine");
                    }
                }
                writes.incrementAndGet();
            } catch (RuntimeException | IOException e) {
                problems.add("writer " + writer + " on " + key + ": " + e);
            }
        }
    }

    private static void collect(Coffer engine, ConcurrentLinkedQueue<String> problems, AtomicBoolean stop,
                                AtomicLong freed, AtomicInteger passes) {
        while (!stop.get()) {
            try {
                GcReport r = engine.collectGarbage();
                freed.addAndGet(r.bytesFreed());
                passes.incrementAndGet();
            } catch (LeaseHeldException busy) {
                // the other engine is collecting: one at a time
            } catch (CofferException e) {
                problems.add("gc: " + e);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void assertEveryAcknowledgedObject(List<Coffer> engines, Map<String, Long> acknowledged)
            throws IOException {
        assertThat(acknowledged).isNotEmpty();
        for (Map.Entry<String, Long> e : acknowledged.entrySet()) {
            for (Coffer engine : engines) {
                if (e.getValue() < 0) {
                    assertThatThrownBy(() -> engine.headObject("bkt", e.getKey())).as(e.getKey())
                            .isInstanceOf(CofferException.NotFound.class);
                } else {
                    assertThat(read(engine, e.getKey())).as(e.getKey()).isEqualTo(TestData.bytes(e.getValue(), SIZE));
                }
            }
        }
    }

    private Coffer engine(MasterKey key, JdbcMetadataStore meta) throws IOException {
        return Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs"))).metadataStore(meta)
                .masterKey(key).gcGrace(GRACE).build();
    }

    private static byte[] read(Coffer c, String key) throws IOException {
        try (ObjectContent content = c.getObject("bkt", key)) {
            return content.stream().readAllBytes();
        }
    }
}

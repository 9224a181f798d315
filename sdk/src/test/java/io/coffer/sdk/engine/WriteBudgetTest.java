package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferBuilder;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * All writes in flight together hold at most the write buffer budget: a write that finds it spent waits, then fails
 * with SlowDown having stored nothing, and succeeds once the memory is back.
 */
class WriteBudgetTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void writeBeyondTheBudgetFailsWithSlowDownStoresNothingAndSucceedsOnceMemoryIsBack() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (TestEngine e = TestEngine.open(dir, b -> b.writeBufferBudget(32L * MIB)
                .budgetWait(Duration.ofMillis(300)))) {
            e.coffer.createBucket("bkt", "t");
            String upload = e.coffer.createMultipartUpload("bkt", "mp");

            // a 40 MiB PUT whose body arrives slowly: its worst case is more than the whole budget, so it holds all
            int big = 40 * MIB;
            PipedOutputStream feed = new PipedOutputStream();
            PipedInputStream slowBody = new PipedInputStream(feed, 64 * 1024);
            CountDownLatch rest = new CountDownLatch(1);
            Future<?> feeder = pool.submit(() -> {
                try (InputStream data = TestData.stream(1, big); feed) {
                    feed.write(data.readNBytes(MIB));
                    rest.await();
                    data.transferTo(feed);
                }
                return null;
            });
            CountDownLatch reading = new CountDownLatch(1);
            InputStream body = new FilterInputStream(slowBody) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    reading.countDown();
                    return super.read(b, off, len);
                }
            };
            Future<ObjectInfo> large = pool.submit(() ->
                    e.coffer.putObject(PutObjectRequest.of("bkt", "large", big), body));
            // the writer reserves before it reads: once it reads, the budget is taken
            assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> e.coffer.putObject(PutObjectRequest.of("bkt", "small", 100_000),
                    TestData.stream(2, 100_000)))
                    .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code())
                            .isEqualTo(ErrorCode.SLOW_DOWN));
            assertThatThrownBy(() -> e.coffer.uploadPart("bkt", "mp", upload, 1, 100_000,
                    TestData.stream(3, 100_000)))
                    .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code())
                            .isEqualTo(ErrorCode.SLOW_DOWN));
            assertThat(e.meta.object("bkt", "small")).isEmpty();
            assertThat(e.coffer.listParts("bkt", "mp", upload, 0, 10).parts()).isEmpty();

            rest.countDown();
            feeder.get(60, TimeUnit.SECONDS);
            assertThat(large.get(60, TimeUnit.SECONDS).size()).isEqualTo(big);

            e.coffer.putObject(PutObjectRequest.of("bkt", "small", 100_000), TestData.stream(2, 100_000));
            try (ObjectContent c = e.coffer.getObject("bkt", "small")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(2, 100_000));
            }
            try (ObjectContent c = e.coffer.getObject("bkt", "large")) {
                assertThat(TestData.md5Hex(c.stream())).isEqualTo(TestData.md5Hex(TestData.stream(1, big)));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void reservationIsTheWritersWorstCase() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            EngineConfig c = ((Engine) e.coffer).config();
            long maxChunk = c.chunker().maxSize();
            long perPack = c.packSize() + maxChunk + 1024;
            assertThat(ObjectWriter.bufferBound(c, 4096, c.inlineLimit())).isEqualTo(4097);
            assertThat(ObjectWriter.bufferBound(c, 100_000, c.inlineLimit())).isEqualTo(100_000 + 100_000 + 1024);
            assertThat(ObjectWriter.bufferBound(c, 4096, 0)).isEqualTo(4096 + 4096 + 1024);
            long twentyMiB = 20L * MIB;
            assertThat(ObjectWriter.bufferBound(c, twentyMiB, c.inlineLimit()))
                    .isEqualTo(2 * maxChunk + perPack + 2 * perPack);
            // longer than one pack: it ends in smaller packs, so it may hold three buffers like any long body
            long tenMiB = 10L * MIB;
            assertThat(ObjectWriter.bufferBound(c, tenMiB, c.inlineLimit()))
                    .isEqualTo(2 * maxChunk + (tenMiB + 1024) + 2 * perPack);
            assertThat(ObjectWriter.bufferBound(c, -1, c.inlineLimit())).isEqualTo(2 * maxChunk + 3 * perPack);
            assertThat(CofferBuilder.DEFAULT_PACK_SIZE).isEqualTo(c.packSize());
        }
    }
}

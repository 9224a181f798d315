package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.ForwardingBlobStore;
import io.coffer.sdk.testing.TestData;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GET reads the back-to-back chunks of a pack with one backend read (runs of up to a whole 8 MiB pack), with the
 * engine's default chunker and pack size: whole objects, ranges at odd offsets and a transfer manager's concurrent
 * ranges return exactly their bytes, and a backend read failing mid-way fails the GET, gives back the read budget and
 * leaves the run arrays serving correct bytes to every later GET. Each chunk of a run goes to the reader as soon as its
 * bytes have arrived and it is verified, while the rest of the run's read is still on its way; a reader that closes
 * meanwhile gives the read budget back at once, and the run's array goes back when its read ends.
 */
class PackRunReadsTest {
    private static final int SIZE = 40 * (1 << 20) + 12_345;
    private static final String PACK_PREFIX = "p/";

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private CountingBlobStore blobs;
    private long fullBudget;

    @Test
    void aWholeObjectGetReadsEachPackOnceAtMost() throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            int packs = blobs.list(PACK_PREFIX).toList().size();
            blobs.packReads.set(0);
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
            // runs of at most 4 MiB read each full pack in two requests or more
            assertThat(blobs.packReads.get()).isPositive().isLessThanOrEqualTo(packs);
        }
    }

    @Test
    void rangedGetsAtOddOffsetsReturnExactlyTheirBytes() throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            SplittableRandom rnd = new SplittableRandom(11);
            List<long[]> ranges = new ArrayList<>(List.of(new long[] {0, 0}, new long[] {SIZE - 1, SIZE - 1},
                    new long[] {1, SIZE - 2}, new long[] {(8 << 20) - 1, (8 << 20) + 1}));
            for (int i = 0; i < 12; i++) {
                long first = rnd.nextInt(SIZE) | 1;
                ranges.add(new long[] {Math.min(first, SIZE - 1), Math.min(SIZE - 1, first + rnd.nextInt(20 << 20))});
            }
            for (long[] r : ranges) {
                try (ObjectContent c = e.coffer.getObject("bkt", "k", ByteRange.of(r[0], r[1]))) {
                    assertThat(c.stream().readAllBytes()).as("bytes %d-%d", r[0], r[1])
                            .isEqualTo(Arrays.copyOfRange(data, (int) r[0], (int) r[1] + 1));
                }
            }
            assertThat(availableBudget()).isEqualTo(fullBudget);
        }
    }

    @Test
    void concurrentRangesOfOneObjectLikeATransferManagerEachReturnTheirBytes() throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            int part = 5 << 20; // not a multiple of the chunk or pack sizes: every range starts inside a chunk
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int round = 0; round < 2; round++) {
                    for (int from = 0; from < SIZE; from += part) {
                        long first = from;
                        long last = Math.min(SIZE, from + part) - 1L;
                        work.add(pool.submit(() -> {
                            try (ObjectContent c = e.coffer.getObject("bkt", "k", ByteRange.of(first, last))) {
                                assertThat(c.stream().readAllBytes())
                                        .isEqualTo(Arrays.copyOfRange(data, (int) first, (int) last + 1));
                            }
                            return null;
                        }));
                    }
                }
                for (Future<?> f : work) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(availableBudget()).isEqualTo(fullBudget);
        }
    }

    @Test
    void aBackendReadFailingMidwayFailsTheGetAndLaterGetsReadCorrectBytes() throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            for (int failing = 2; failing <= 4; failing++) {
                // the first run is read before the GET returns; a later one fails after writing part of its array
                blobs.failAtPackRead(failing);
                try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                    InputStream in = c.stream();
                    assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class);
                }
                blobs.failAtPackRead(0);
                assertThat(availableBudget()).isEqualTo(fullBudget);
                try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                    assertThat(c.stream().readAllBytes()).isEqualTo(data);
                }
                long first = 3 * (1 << 20) + 7;
                try (ObjectContent c = e.coffer.getObject("bkt", "k", ByteRange.of(first, SIZE - 3))) {
                    assertThat(c.stream().readAllBytes()).isEqualTo(Arrays.copyOfRange(data, (int) first, SIZE - 2));
                }
            }
        }
    }

    @Test
    void aGetAnswersFromARunsFirstChunksWhileItsReadIsHeldAndAReaderClosingMeanwhileGivesTheBudgetBack()
            throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            blobs.holdNextPackReadBeforeItsEnd();
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                InputStream in = c.stream();
                assertThat(in.readNBytes(64 << 10)).isEqualTo(Arrays.copyOf(data, 64 << 10));
                assertThat(blobs.ended.getCount()).as("the run's backend read is still held").isEqualTo(1);
                blobs.release();
                assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(data, 64 << 10, SIZE));
            }
            assertThat(availableBudget()).isEqualTo(fullBudget);

            blobs.holdNextPackReadBeforeItsEnd();
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                assertThat(c.stream().readNBytes(10)).isEqualTo(Arrays.copyOf(data, 10));
            }
            assertThat(availableBudget()).as("given back while the run's read is held").isEqualTo(fullBudget);
            blobs.release();
            assertThat(blobs.ended.await(10, TimeUnit.SECONDS)).as("the held read ends").isTrue();
            for (int i = 0; i < 2; i++) {
                try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                    assertThat(c.stream().readAllBytes()).as("the run arrays serve correct bytes").isEqualTo(data);
                }
            }
            assertThat(availableBudget()).isEqualTo(fullBudget);
        }
    }

    private TestEngine open() throws IOException {
        blobs = new CountingBlobStore(new DirectoryBlobStore(dir.resolve("counted")));
        TestEngine e = TestEngine.open(dir, b -> b.blobStore(blobs).meterRegistry(meters));
        e.coffer.createBucket("bkt", "t");
        fullBudget = availableBudget();
        return e;
    }

    private static byte[] store(TestEngine e) {
        e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(23, SIZE));
        return TestData.bytes(23, SIZE);
    }

    private long availableBudget() {
        return (long) meters.get("coffer.read.budget.available").gauge().value();
    }

    /**
     * Counts the reads of packs; one of them can be made to fail after writing junk into part of its array, or to
     * stop before its last bytes arrive until released (keeping the directory store's progress).
     */
    private static final class CountingBlobStore extends ForwardingBlobStore {
        final AtomicInteger packReads = new AtomicInteger();
        private volatile int failAt;
        private final AtomicInteger holdArmed = new AtomicInteger();
        private volatile CountDownLatch release = new CountDownLatch(0);
        volatile CountDownLatch ended = new CountDownLatch(0);

        CountingBlobStore(BlobStore inner) {
            super(inner);
        }

        /** The {@code n}th pack read from now fails (0: none does). */
        void failAtPackRead(int n) {
            packReads.set(0);
            failAt = n;
        }

        void holdNextPackReadBeforeItsEnd() {
            release = new CountDownLatch(1);
            ended = new CountDownLatch(1);
            holdArmed.set(1);
        }

        void release() {
            release.countDown();
        }

        @Override
        public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
                throws IOException {
            if (!name.startsWith(PACK_PREFIX) || !holdArmed.compareAndSet(1, 0)) {
                super.readInto(name, offset, dst, dstOffset, length, progress); // through the counting read below
                return;
            }
            try {
                delegateReadInto(name, offset, dst, dstOffset, length, n -> {
                    if (n == length) {
                        awaitRelease();
                    }
                    progress.arrived(n);
                });
            } finally {
                ended.countDown();
            }
        }

        private void awaitRelease() throws InterruptedIOException {
            try {
                if (!release.await(10, TimeUnit.SECONDS)) {
                    throw new InterruptedIOException("never released");
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while held");
            }
        }

        @Override
        public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
            if (name.startsWith(PACK_PREFIX) && packReads.incrementAndGet() == failAt) {
                Arrays.fill(dst, dstOffset, dstOffset + length / 2, (byte) 0x5a);
                throw new IOException("connection reset by the backend");
            }
            super.readInto(name, offset, dst, dstOffset, length);
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GET hands out each chunk of a run as soon as its stored bytes have arrived and it is verified, while the rest of
 * the run's one backend read is still on its way: the answer's first bytes do not wait for a whole pack range. A
 * reader that closes meanwhile gives the read budget back at once, and the run's array goes back when its read ends.
 */
class ChunkByChunkReadsTest {
    private static final int SIZE = 24 * (1 << 20) + 777;
    private static final String PACK_PREFIX = "p/";

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private HeldBlobStore blobs;

    @Test
    void aGetAnswersFromARunsFirstChunksWhileTheRestOfItsReadIsHeld() throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            blobs.holdNextPackReadBeforeItsEnd();
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                InputStream in = c.stream();
                byte[] head = in.readNBytes(64 << 10);
                assertThat(head).isEqualTo(Arrays.copyOf(data, 64 << 10));
                assertThat(blobs.held.getCount()).as("the run's backend read is still held").isEqualTo(1);
                blobs.release();
                assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(data, 64 << 10, SIZE));
            }
            assertThat(availableBudget()).isEqualTo(fullBudget);
        }
    }

    @Test
    void closingWhileARunIsArrivingGivesTheBudgetBackAndLaterGetsReadCorrectBytes() throws Exception {
        try (TestEngine e = open()) {
            byte[] data = store(e);
            blobs.holdNextPackReadBeforeItsEnd();
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                assertThat(c.stream().readNBytes(10)).isEqualTo(Arrays.copyOf(data, 10));
            }
            assertThat(availableBudget()).as("given back while the run's read is held").isEqualTo(fullBudget);
            blobs.release();
            assertThat(blobs.ended.await(10, TimeUnit.SECONDS)).as("the held read ends").isTrue();
            for (int i = 0; i < 2; i++) {
                try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                    assertThat(c.stream().readAllBytes()).isEqualTo(data);
                }
            }
            assertThat(availableBudget()).isEqualTo(fullBudget);
        }
    }

    private long fullBudget;

    private TestEngine open() throws IOException {
        blobs = new HeldBlobStore(new DirectoryBlobStore(dir.resolve("held")));
        TestEngine e = TestEngine.open(dir, b -> b.blobStore(blobs).meterRegistry(meters));
        e.coffer.createBucket("bkt", "t");
        fullBudget = availableBudget();
        return e;
    }

    private static byte[] store(TestEngine e) {
        e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(31, SIZE));
        return TestData.bytes(31, SIZE);
    }

    private long availableBudget() {
        return (long) meters.get("coffer.read.budget.available").gauge().value();
    }

    /** Keeps the directory store's progress; one armed pack read stops before its last bytes until released. */
    private static final class HeldBlobStore extends ForwardingBlobStore {
        private final AtomicInteger armed = new AtomicInteger();
        private volatile CountDownLatch release = new CountDownLatch(0);
        volatile CountDownLatch held = new CountDownLatch(0);
        volatile CountDownLatch ended = new CountDownLatch(0);

        HeldBlobStore(BlobStore inner) {
            super(inner);
        }

        void holdNextPackReadBeforeItsEnd() {
            release = new CountDownLatch(1);
            held = new CountDownLatch(1);
            ended = new CountDownLatch(1);
            armed.set(1);
        }

        void release() {
            held.countDown();
            release.countDown();
        }

        @Override
        public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
                throws IOException {
            boolean hold = name.startsWith(PACK_PREFIX) && armed.compareAndSet(1, 0);
            try {
                delegateReadInto(name, offset, dst, dstOffset, length, n -> {
                    if (hold && n == length) {
                        awaitRelease();
                    }
                    progress.arrived(n);
                });
            } finally {
                if (hold) {
                    ended.countDown();
                }
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
    }
}

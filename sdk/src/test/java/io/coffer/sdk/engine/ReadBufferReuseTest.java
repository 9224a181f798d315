package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read path reuses its run arrays between GETs ({@link RunBuffers}): a GET closed halfway, a ranged GET and GETs
 * on many threads at once must each still return exactly their own object's bytes, never bytes left in an array by
 * another object.
 */
class ReadBufferReuseTest {
    private static final int OBJECTS = 4;
    private static final int SIZE = 9_000_000; // several chunks and at least three 4 MiB runs per object

    @TempDir
    Path dir;

    @Test
    void readsAfterAbandonedReadsReturnOnlyTheirOwnObjectsBytes() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            byte[][] data = store(e);
            SplittableRandom rnd = new SplittableRandom(7);
            for (int i = 0; i < 24; i++) {
                int abandoned = rnd.nextInt(OBJECTS);
                try (ObjectContent c = e.coffer.getObject("bkt", "k" + abandoned)) {
                    // stop inside a run, so that its array still has slices queued when the stream closes
                    byte[] head = c.stream().readNBytes(1 + rnd.nextInt(SIZE - 1));
                    assertThat(head).isEqualTo(Arrays.copyOf(data[abandoned], head.length));
                }
                int read = rnd.nextInt(OBJECTS);
                if (i % 2 == 0) {
                    try (ObjectContent c = e.coffer.getObject("bkt", "k" + read)) {
                        assertThat(c.stream().readAllBytes()).isEqualTo(data[read]);
                    }
                } else {
                    long first = rnd.nextInt(SIZE);
                    long last = first + rnd.nextInt((int) (SIZE - first));
                    try (ObjectContent c = e.coffer.getObject("bkt", "k" + read, ByteRange.of(first, last))) {
                        assertThat(c.stream().readAllBytes())
                                .isEqualTo(Arrays.copyOfRange(data[read], (int) first, (int) last + 1));
                    }
                }
            }
        }
    }

    @Test
    void concurrentReadersSomeAbandoningTheirStreamsEachGetTheirOwnBytes() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            byte[][] data = store(e);
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    work.add(pool.submit(() -> {
                        for (int i = 0; i < 6; i++) {
                            int k = (thread + i) % OBJECTS;
                            try (ObjectContent c = e.coffer.getObject("bkt", "k" + k)) {
                                InputStream in = c.stream();
                                if ((thread + i) % 3 == 0) {
                                    byte[] head = in.readNBytes(SIZE / 3);
                                    assertThat(head).isEqualTo(Arrays.copyOf(data[k], head.length));
                                } else {
                                    assertThat(in.readAllBytes()).isEqualTo(data[k]);
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : work) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static byte[][] store(TestEngine e) {
        e.coffer.createBucket("bkt", "t");
        byte[][] data = new byte[OBJECTS][];
        for (int i = 0; i < OBJECTS; i++) {
            data[i] = TestData.bytes(100 + i, SIZE);
            e.coffer.putObject(PutObjectRequest.of("bkt", "k" + i, SIZE), TestData.stream(100 + i, SIZE));
        }
        return data;
    }
}

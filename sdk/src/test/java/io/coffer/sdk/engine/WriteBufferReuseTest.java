package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.chunk.FixedChunker;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write path reuses its pack buffers and chunk-reader windows between writes ({@link EngineContext#packArrays},
 * {@link EngineContext#windowArrays}): a write whose buffer reservation covers whole ones takes them from the pools
 * and gives them back once its uploads are done, and every object still reads back as exactly its own bytes, whatever
 * an array held before.
 */
class WriteBufferReuseTest {
    private static final int PACK = 1 << 20;
    private static final int CHUNK = 64 << 10;
    private static final int SIZE = 5 * PACK + 12_345; // several packs per body, the last ones smaller

    @TempDir
    Path dir;

    @Test
    void aLargeWriteGivesItsArraysBackAndTheNextTakesThemInsteadOfNewOnes() throws IOException {
        try (TestEngine e = open(); EngineContext ctx = new EngineContext(((Engine) e.coffer).config())) {
            write(ctx, 1, SIZE);
            // one window, and the filling pack plus the uploads in flight, all back once the uploads are done
            int packs = pooled(ctx.packArrays);
            assertThat(pooled(ctx.windowArrays)).isEqualTo(1);
            assertThat(packs).isBetween(2, 1 + ObjectWriter.UPLOADS_IN_FLIGHT);

            write(ctx, 2, SIZE);
            // the second write took those arrays: had it allocated its own, the pools would hold both writes' arrays
            assertThat(pooled(ctx.packArrays)).isEqualTo(packs);
            assertThat(pooled(ctx.windowArrays)).isEqualTo(1);
        }
    }

    @Test
    void aWriteOfLessThanAWholePackKeepsOutOfThePackPool() throws IOException {
        try (TestEngine e = open(); EngineContext ctx = new EngineContext(((Engine) e.coffer).config())) {
            write(ctx, 3, PACK / 2);

            // its reservation covers only its own size: a pooled pack array would exceed it
            assertThat(pooled(ctx.packArrays)).isZero();
        }
    }

    @Test
    void objectsWrittenOneAfterAnotherAndAfterAFailedWriteReadBackAsTheirOwnBytes() throws IOException {
        try (TestEngine e = open()) {
            for (int i = 0; i < 4; i++) {
                put(e, i);
                if (i == 1) {
                    // a body shorter than declared fails after packs were filled; its arrays are not reused
                    assertThatThrownBy(() -> e.coffer.putObject(PutObjectRequest.of("bkt", "short", SIZE),
                            TestData.stream(99, SIZE - 1000))).isInstanceOf(CofferException.class);
                }
            }
            for (int i = 0; i < 4; i++) {
                assertReadsBack(e, i);
            }
        }
    }

    @Test
    void objectsWrittenOnManyThreadsAtOnceReadBackAsTheirOwnBytes() throws Exception {
        try (TestEngine e = open()) {
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Callable<Void>> puts = IntStream.range(0, 12).mapToObj(i -> (Callable<Void>) () -> {
                    put(e, i);
                    return null;
                }).toList();
                for (Future<Void> f : pool.invokeAll(puts)) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            for (int i = 0; i < 12; i++) {
                assertReadsBack(e, i);
            }
        }
    }

    private TestEngine open() throws IOException {
        TestEngine e = TestEngine.open(dir, b -> b.packSize(PACK).chunker(new FixedChunker(CHUNK)));
        e.coffer.createBucket("bkt", "t");
        return e;
    }

    private static void write(EngineContext ctx, long seed, int size) throws IOException {
        ObjectWriter w = new ObjectWriter(ctx, "bkt", "k" + seed, size, 0);
        try (InputStream in = TestData.stream(seed, size)) {
            w.write(in);
        }
        w.awaitUploads();
    }

    private static int pooled(RunBuffers arrays) {
        return arrays.pooled() + arrays.softlyPooled();
    }

    private static void put(TestEngine e, int seed) {
        e.coffer.putObject(PutObjectRequest.of("bkt", "k" + seed, SIZE), TestData.stream(1000 + seed, SIZE));
    }

    private static void assertReadsBack(TestEngine e, int seed) throws IOException {
        try (ObjectContent c = e.coffer.getObject("bkt", "k" + seed)) {
            assertThat(TestData.md5Hex(c.stream())).isEqualTo(TestData.md5Hex(TestData.stream(1000 + seed, SIZE)));
        }
    }
}

package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.chunk.FixedChunker;
import io.coffer.sdk.testing.TestData;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * All reads in flight together hold at most the read buffer budget: a GET that cannot get its first run's worth
 * fails with SlowDown before it returns a byte, a GET whose share is only that first run still streams its whole
 * object, read-ahead takes only memory the budget has free, and every share comes back at the end of the stream.
 */
class ReadBudgetTest {
    private static final int MIB = 1 << 20;
    /**
     * 1 MiB chunks in one pack: a run is seven of them (up to 8 MiB), a stream's first-run share one large pooled array
     * (8 MiB + 16).
     */
    private static final long SHARE_KIB = (8L * MIB + 16 + 1023) >> 10;
    /** A run of at most 4 MiB (the object's last two chunks) takes a small pooled array (4 MiB + 16). */
    private static final long SMALL_SHARE_KIB = (4L * MIB + 16 + 1023) >> 10;
    private static final int SIZE = 9_000_000;

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void getBeyondTheBudgetFailsWithSlowDownAndSucceedsOnceAnotherGetEnds() throws Exception {
        try (TestEngine e = open(2 * SHARE_KIB + 100)) {
            byte[] data = store(e, "k");
            ObjectContent first = e.coffer.getObject("bkt", "k");
            try (ObjectContent second = e.coffer.getObject("bkt", "k")) {
                assertThatThrownBy(() -> e.coffer.getObject("bkt", "k"))
                        .isInstanceOfSatisfying(CofferException.class,
                                ce -> assertThat(ce.code()).isEqualTo(ErrorCode.SLOW_DOWN));

                first.close();
                try (ObjectContent third = e.coffer.getObject("bkt", "k")) {
                    assertThat(third.stream().readAllBytes()).isEqualTo(data);
                }
                assertThat(second.stream().readAllBytes()).isEqualTo(data);
            }
            assertThat(availableKib()).isEqualTo(2 * SHARE_KIB + 100);
        }
    }

    @Test
    void getWhoseShareIsOnlyItsFirstRunStillStreamsTheWholeObjectAndRanges() throws Exception {
        try (TestEngine e = open(SHARE_KIB + 100)) {
            byte[] data = store(e, "k");
            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(data);
            }
            try (ObjectContent c = e.coffer.getObject("bkt", "k", ByteRange.of(1_000_000, 8_500_000))) {
                assertThat(c.stream().readAllBytes()).isEqualTo(Arrays.copyOfRange(data, 1_000_000, 8_500_001));
            }
            assertThat(availableKib()).isEqualTo(SHARE_KIB + 100);
        }
    }

    @Test
    void readAheadTakesOnlyFreeMemoryAndEveryShareComesBackAtTheEndOfTheStream() throws Exception {
        long budget = 64L * 1024;
        try (TestEngine e = open(budget)) {
            byte[] data = store(e, "k");
            ObjectContent c = e.coffer.getObject("bkt", "k");
            assertThat(availableKib()).isEqualTo(budget - SHARE_KIB);
            assertThat(c.stream().read()).isEqualTo(data[0] & 0xff);
            // both runs of the object are under way or read: the second (two chunks) beyond the first-run share
            assertThat(availableKib()).isEqualTo(budget - SHARE_KIB - SMALL_SHARE_KIB);

            // read to the end without closing: an embedder that forgets close() does not leak the budget
            byte[] rest = c.stream().readAllBytes();
            assertThat(rest).isEqualTo(Arrays.copyOfRange(data, 1, SIZE));
            assertThat(availableKib()).isEqualTo(budget);
            c.close();
            assertThat(availableKib()).isEqualTo(budget);
        }
    }

    @Test
    void smallObjectsShareOfTheBudgetIsTheirSizeNotAWholeRunArray() throws Exception {
        long budget = 64L * 1024;
        try (TestEngine e = open(budget)) {
            int size = 100_000; // above the inline limit: one chunk in a pack
            e.coffer.putObject(PutObjectRequest.of("bkt", "small", size), TestData.stream(3, size));
            try (ObjectContent c = e.coffer.getObject("bkt", "small")) {
                assertThat(availableKib()).isEqualTo(budget - ((size + 16 + 1023) >> 10));
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(3, size));
            }
            assertThat(availableKib()).isEqualTo(budget);
        }
    }

    private TestEngine open(long budgetKib) throws IOException {
        TestEngine e = TestEngine.open(dir, b -> b.readBufferBudget(budgetKib << 10).budgetWait(Duration.ofMillis(300))
                .chunker(new FixedChunker(MIB)).packSize(32 * MIB).meterRegistry(meters));
        e.coffer.createBucket("bkt", "t");
        return e;
    }

    private static byte[] store(TestEngine e, String key) throws IOException {
        e.coffer.putObject(PutObjectRequest.of("bkt", key, SIZE), TestData.stream(5, SIZE));
        return TestData.bytes(5, SIZE);
    }

    private long availableKib() {
        return (long) meters.get("coffer.read.budget.available").gauge().value() >> 10;
    }
}

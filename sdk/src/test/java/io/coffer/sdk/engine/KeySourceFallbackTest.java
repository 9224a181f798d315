package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.key.ConvergentKeySource;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.testing.TestData;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failing key source costs deduplication, never a write; dedup resumes when it is back. */
class KeySourceFallbackTest {
    @TempDir
    Path dir;

    /** Fault injection: a key source that can be switched off, as a dead key server would be. */
    static final class SwitchableKeySource implements KeySource {
        final AtomicBoolean down = new AtomicBoolean();
        final AtomicInteger calls = new AtomicInteger();
        private final KeySource real = new ConvergentKeySource(new byte[] {1, 2, 3});

        @Override
        public List<ChunkKey> keysFor(List<byte[]> hashes) throws KeySourceException {
            calls.incrementAndGet();
            if (down.get()) {
                throw new KeySourceException("key server unavailable");
            }
            return real.keysFor(hashes);
        }

        @Override
        public boolean messageLocked() {
            return true;
        }

        @Override
        public String name() {
            return "switchable";
        }
    }

    @Test
    void writesSucceedWithRandomKeysWhileTheKeySourceIsDown() throws Exception {
        SwitchableKeySource keys = new SwitchableKeySource();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (TestEngine e = TestEngine.open(dir, b -> b.keySource(keys).meterRegistry(meters).keyBatchChunks(8)
                .keySourcePause(Duration.ZERO))) {
            e.coffer.createBucket("bkt", "t");
            int size = 6_000_000;
            e.coffer.putObject(PutObjectRequest.of("bkt", "up", size), TestData.stream(1, size));
            long afterUp = e.backendBytes();

            keys.down.set(true);
            e.coffer.putObject(PutObjectRequest.of("bkt", "down", size), TestData.stream(1, size));
            double fallbacks = meters.counter("coffer.keysource.fallbacks").count();
            assertThat(fallbacks).isPositive();
            // random keys: the same data was stored again
            assertThat(e.backendBytes() - afterUp).isGreaterThan(size);
            try (ObjectContent c = e.coffer.getObject("bkt", "down")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(1, size));
            }

            keys.down.set(false);
            long beforeBack = e.backendBytes();
            e.coffer.putObject(PutObjectRequest.of("bkt", "back", size), TestData.stream(1, size));
            assertThat(e.backendBytes() - beforeBack).isLessThan(size / 100);
            assertThat(meters.counter("coffer.keysource.fallbacks").count()).isEqualTo(fallbacks);
        }
    }

    @Test
    void afterAFailureTheKeySourceIsLeftAloneForThePause() throws Exception {
        SwitchableKeySource keys = new SwitchableKeySource();
        keys.down.set(true);
        try (TestEngine e = TestEngine.open(dir, b -> b.keySource(keys).keyBatchChunks(2)
                .keySourcePause(Duration.ofMinutes(10)))) {
            e.coffer.createBucket("bkt", "t");
            for (int i = 0; i < 3; i++) {
                e.coffer.putObject(PutObjectRequest.of("bkt", "k" + i, 5_000_000), TestData.stream(i, 5_000_000));
            }
            assertThat(keys.calls.get()).as("one failed call, then random keys without asking").isEqualTo(1);
        }
    }
}

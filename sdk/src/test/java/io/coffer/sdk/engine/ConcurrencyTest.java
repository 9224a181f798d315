package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many writers and readers at once: one winner per key, nothing torn, references exact. */
class ConcurrencyTest {
    @TempDir
    Path dir;

    @Test
    void concurrentPutsOfOneKeyLeaveExactlyOneCompleteWinner() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<ObjectInfo>> puts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int seed = i;
                puts.add(pool.submit(() -> e.coffer.putObject(PutObjectRequest.of("bkt", "same", 2_500_000),
                        TestData.stream(seed, 2_500_000))));
            }
            Set<String> etags = new HashSet<>();
            for (Future<ObjectInfo> f : puts) {
                etags.add(f.get().etag());
            }
            pool.shutdown();
            assertThat(etags).hasSize(8);
            String winner = e.coffer.headObject("bkt", "same").etag();
            assertThat(etags).contains(winner);
            try (ObjectContent c = e.coffer.getObject("bkt", "same")) {
                assertThat(TestData.md5Hex(c.stream())).isEqualTo(winner);
            }
            assertThat(e.meta.stats().objects()).isEqualTo(1);
            // the seven losers released everything: only the winner's manifest remains
            assertThat(e.blobs.list(BackendLayout.MANIFESTS).toList()).hasSize(1);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void mixedConcurrentPutsAndGetsAllSucceed() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            for (int i = 0; i < 8; i++) {
                e.coffer.putObject(PutObjectRequest.of("bkt", "k" + i, 1_000_000 + i), TestData.stream(i, 1_000_000 + i));
            }
            ExecutorService pool = Executors.newFixedThreadPool(12);
            List<Future<?>> work = new ArrayList<>();
            for (int round = 0; round < 48; round++) {
                int i = round % 8;
                if (round % 3 == 0) {
                    work.add(pool.submit(() -> e.coffer.putObject(PutObjectRequest.of("bkt", "k" + i, 1_000_000 + i),
                            TestData.stream(i, 1_000_000 + i))));
                } else {
                    work.add(pool.submit(() -> {
                        try (ObjectContent c = e.coffer.getObject("bkt", "k" + i)) {
                            assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(i, 1_000_000 + i));
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : work) {
                f.get();
            }
            pool.shutdown();
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }
}

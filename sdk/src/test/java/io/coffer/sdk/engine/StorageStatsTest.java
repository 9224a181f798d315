package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.coffer.sdk.BucketStats;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.UsageStats;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Storage statistics of a real engine: dedup and compression ratios follow from what was stored. */
class StorageStatsTest {
    @TempDir
    Path dir;

    private static byte[] text(int size) {
        StringBuilder sb = new StringBuilder(size + 100);
        for (int i = 0; sb.length() < size; i++) {
            sb.append("line ").append(i).append(": the quick brown fox jumps over the lazy dog ").append(i % 97)
                    .append('\n');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    private static void put(Coffer coffer, String bucket, String key, byte[] body) {
        coffer.putObject(PutObjectRequest.of(bucket, key, body.length), new ByteArrayInputStream(body));
    }

    @Test
    void textCompressesRandomDataDoesNotAndAnObjectStoredTwiceDedupsToHalf() {
        byte[] text = text(700_000);
        byte[] random = new byte[700_000];
        new Random(7).nextBytes(random);
        try (Coffer coffer = Coffer.builder().directory(dir).build()) {
            coffer.createBucket("text", "alice");
            coffer.createBucket("random", "bob");
            coffer.createBucket("both", "alice");
            put(coffer, "text", "a", text);
            put(coffer, "text", "b", text);
            put(coffer, "random", "a", random);
            put(coffer, "both", "t", text);
            put(coffer, "both", "r", random);
            put(coffer, "both", "small", "tiny".getBytes(StandardCharsets.US_ASCII));

            StorageStats stats = coffer.storageStats();
            UsageStats textUsage = bucket(stats, "text");
            assertThat(textUsage.objects()).isEqualTo(2);
            assertThat(textUsage.logicalBytes()).isEqualTo(2L * text.length);
            assertThat(textUsage.referencedBytes()).isEqualTo(text.length);
            assertThat(textUsage.dedupRatio()).isEqualTo(2.0);
            assertThat(textUsage.compressionRatio()).isGreaterThan(4.0);
            assertThat(textUsage.totalRatio()).isGreaterThan(8.0);
            assertThat(textUsage.chunksOfUnknownPlainLength()).isZero();

            UsageStats randomUsage = bucket(stats, "random");
            assertThat(randomUsage.dedupRatio()).isEqualTo(1.0);
            // stored uncompressed: 16 bytes of tag per chunk
            assertThat(randomUsage.storedBytes()).isEqualTo(random.length + 16L * randomUsage.chunks());
            assertThat(randomUsage.compressionRatio()).isCloseTo(1.0, within(0.001));

            UsageStats both = bucket(stats, "both");
            assertThat(both.objects()).isEqualTo(3);
            assertThat(both.inlineObjects()).isEqualTo(1);
            assertThat(both.inlineBytes()).isEqualTo(4);
            assertThat(both.referencedBytes()).isEqualTo(text.length + random.length);
            assertThat(both.storedBytes()).isEqualTo(textUsage.storedBytes() + randomUsage.storedBytes());

            // the text chunks are shared by two of alice's buckets: she and the store count them once
            UsageStats alice = stats.tenants().get("alice");
            assertThat(alice.objects()).isEqualTo(5);
            assertThat(alice.referencedBytes()).isEqualTo(text.length + random.length);
            UsageStats store = stats.store();
            assertThat(store.objects()).isEqualTo(6);
            assertThat(store.referencedBytes()).isEqualTo(text.length + random.length);
            assertThat(store.storedBytes()).isEqualTo(both.storedBytes());
            assertThat(store.storedBytes()).isEqualTo(coffer.stats().chunkBytes());
            assertThat(stats.packBytes()).isGreaterThan(store.storedBytes());
        }
    }

    private static UsageStats bucket(StorageStats stats, String name) {
        return stats.buckets().stream().filter(b -> b.bucket().equals(name)).map(BucketStats::usage).findFirst()
                .orElseThrow();
    }
}

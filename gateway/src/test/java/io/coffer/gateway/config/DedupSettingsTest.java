package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dedup-exclude and dedup-min-size reach the engine that serve opens: equal objects then store separate chunks. */
class DedupSettingsTest {
    private static final byte[] CONTENT = new byte[256 * 1024];

    static {
        new Random(17).nextBytes(CONTENT);
    }

    @TempDir
    Path dir;

    private long chunksAfterPutting(Map<String, String> env, String... bucketSlashKey) {
        GatewayConfig c = GatewayConfig.load(null, env, Map.of(ConfigKey.DATA, dir.resolve("data").toString()));
        try (Coffer coffer = EngineOpener.open(c, null)) {
            for (String b : new String[] {"shared", "private"}) {
                coffer.createBucket(b, "tenant");
            }
            long before = -1;
            for (String bk : bucketSlashKey) {
                int slash = bk.indexOf('/');
                coffer.putObject(PutObjectRequest.of(bk.substring(0, slash), bk.substring(slash + 1), CONTENT.length),
                        new ByteArrayInputStream(CONTENT));
                if (before < 0) {
                    before = coffer.stats().chunks();
                }
            }
            return coffer.stats().chunks() - before;
        }
    }

    @Test
    void withoutSettingsEqualObjectsShareChunksAcrossBuckets() {
        assertThat(chunksAfterPutting(Map.of(), "shared/a", "private/x", "shared/secret/y")).isZero();
    }

    @Test
    void anExcludedBucketOrPrefixDoesNotDeduplicateWithEqualObjectsElsewhere() {
        long added = chunksAfterPutting(Map.of("COFFER_DEDUP_EXCLUDE", "private,shared/secret/"),
                "shared/a", "shared/b", "private/x", "shared/secret/y");
        GatewayConfig c = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, dir.resolve("data").toString()));
        try (Coffer coffer = EngineOpener.open(c, null)) {
            long perObject = coffer.stats().chunks() / 3;
            assertThat(perObject).isPositive();
            assertThat(added).as("shared/b deduplicated; private/x and shared/secret/y stored apart")
                    .isEqualTo(2 * perObject);
        }
    }

    @Test
    void chunksBelowTheMinimumSizeNeverDeduplicate() {
        assertThat(chunksAfterPutting(Map.of("COFFER_DEDUP_MIN_SIZE", String.valueOf(1 << 30)), "shared/a",
                "shared/b")).isPositive();
    }
}

package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.CompressionPolicy;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compression, compression-level and compression-exclude reach the engine that serve opens: text is stored in a
 * fraction of its size by default, in full where compression is off for the gateway or for a bucket or prefix.
 */
class CompressionSettingsTest {
    private static final byte[] TEXT = text(600_000);

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

    /** Stored chunk bytes of each object, in order; every object reads back equal to TEXT. */
    private long[] storedPerObject(Map<String, String> env, String... bucketSlashKey) throws IOException {
        GatewayConfig c = GatewayConfig.load(null, env, Map.of(ConfigKey.DATA, dir.resolve("data").toString()));
        long[] stored = new long[bucketSlashKey.length];
        try (Coffer coffer = EngineOpener.open(c, null)) {
            for (String b : new String[] {"shared", "private"}) {
                coffer.createBucket(b, "tenant");
            }
            for (int i = 0; i < bucketSlashKey.length; i++) {
                String bk = bucketSlashKey[i];
                int slash = bk.indexOf('/');
                long before = coffer.stats().chunkBytes();
                // a distinct first byte per object, so nothing deduplicates with an earlier one
                byte[] body = TEXT.clone();
                body[0] = (byte) ('A' + i);
                coffer.putObject(PutObjectRequest.of(bk.substring(0, slash), bk.substring(slash + 1), body.length),
                        new ByteArrayInputStream(body));
                stored[i] = coffer.stats().chunkBytes() - before;
                try (ObjectContent content = coffer.getObject(bk.substring(0, slash), bk.substring(slash + 1))) {
                    assertThat(content.stream().readAllBytes()).isEqualTo(body);
                }
            }
        }
        return stored;
    }

    @Test
    void byDefaultTextIsStoredCompressed() throws IOException {
        long[] stored = storedPerObject(Map.of(), "shared/a", "private/x");
        assertThat(stored[0]).isLessThan(TEXT.length / 4);
        assertThat(stored[1]).isLessThan(TEXT.length / 4);
    }

    @Test
    void compressionOffStoresTextInFull() throws IOException {
        long[] stored = storedPerObject(Map.of("COFFER_COMPRESSION", "false"), "shared/a");
        assertThat(stored[0]).isGreaterThanOrEqualTo(TEXT.length);
    }

    @Test
    void anExcludedBucketOrPrefixIsStoredUncompressedAndOthersCompressed() throws IOException {
        long[] stored = storedPerObject(Map.of("COFFER_COMPRESSION_EXCLUDE", "private,shared/raw/"),
                "shared/a", "private/x", "shared/raw/y");
        assertThat(stored[0]).isLessThan(TEXT.length / 4);
        assertThat(stored[1]).isGreaterThanOrEqualTo(TEXT.length);
        assertThat(stored[2]).isGreaterThanOrEqualTo(TEXT.length);
    }

    @Test
    void settingsParseIntoThePolicyAndBadValuesAreRefused() {
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_COMPRESSION_LEVEL", "3",
                "COFFER_COMPRESSION_EXCLUDE", "logs, media/raw/"), Map.of());
        assertThat(c.compressionPolicy()).isEqualTo(new CompressionPolicy(true, 3, List.of(
                new CompressionPolicy.Exclusion("logs", ""), new CompressionPolicy.Exclusion("media", "raw/"))));
        assertThat(GatewayConfig.load(null, Map.of(), Map.of()).compressionPolicy())
                .isEqualTo(CompressionPolicy.DEFAULT);
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_COMPRESSION", "yes"), Map.of()))
                .hasMessageContaining("compression");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_COMPRESSION_LEVEL", "0"), Map.of()))
                .hasMessageContaining("compression-level");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_COMPRESSION_LEVEL", "23"), Map.of()))
                .hasMessageContaining("compression-level");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_COMPRESSION_EXCLUDE", "/x"), Map.of()))
                .hasMessageContaining("compression-exclude");
    }
}

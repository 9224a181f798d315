package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * layer-mode, layer-sub-chunk-average, layer-threshold and layer-recipes (COFFER_LAYER_MODE ...) reach the engine that
 * serve opens:
 * a gzip object's second version costs a fraction of its size in the named bucket and reads back byte for byte.
 */
class LayerModeSettingsTest {
    @TempDir
    Path dir;

    @Test
    void environmentVariableNamesTheBucketsAndTheirModes() {
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_LAYER_MODE", "images=basic:1,layers",
                "COFFER_LAYER_SUB_CHUNK_AVERAGE", "512"), Map.of());
        assertThat(c.layerModePolicy().modeOf("images")).contains("basic:1");
        assertThat(c.layerModePolicy().modeOf("layers")).contains("high");
        assertThat(c.layerModePolicy().modeOf("photos")).isEmpty();
        assertThat(c.layerModePolicy().subChunkAverage()).isEqualTo(512);
        assertThat(GatewayConfig.load(null, Map.of(), Map.of()).layerModePolicy().isOff()).isTrue();
    }

    @Test
    void zlibRecipesAreOnUnlessLayerRecipesIsFalse() {
        assertThat(GatewayConfig.load(null, Map.of("COFFER_LAYER_MODE", "layers"), Map.of()).layerModePolicy()
                .zlibRecipes()).isTrue();
        assertThat(GatewayConfig.load(null, Map.of("COFFER_LAYER_MODE", "layers", "COFFER_LAYER_RECIPES", "false"),
                Map.of()).layerModePolicy().zlibRecipes()).isFalse();
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_LAYER_RECIPES", "sometimes"), Map.of())
                .layerModePolicy()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("layer-recipes");
    }

    @Test
    void aBadModeIsAConfigurationError() {
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_LAYER_MODE", "b=often"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("often");
    }

    @Test
    void aLayerBucketStoresASecondVersionInAFractionOfItsSize() throws Exception {
        byte[] v1 = gzip(text(0));
        byte[] v2 = gzip(text(1));
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_LAYER_MODE", "layers"),
                Map.of(ConfigKey.DATA, dir.resolve("data").toString()));
        try (Coffer coffer = EngineOpener.open(c, null)) {
            coffer.createBucket("layers", "tenant");
            coffer.putObject(PutObjectRequest.of("layers", "v1.tgz", v1.length), new ByteArrayInputStream(v1));
            long before = coffer.stats().chunkBytes();
            ObjectInfo info = coffer.putObject(PutObjectRequest.of("layers", "v2.tgz", v2.length),
                    new ByteArrayInputStream(v2));
            long added = coffer.stats().chunkBytes() - before;
            assertThat(added).isLessThan(v2.length / 3);
            assertThat(info.etag()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(v2)));
            try (ObjectContent content = coffer.getObject("layers", "v2.tgz")) {
                assertThat(content.stream().readAllBytes()).isEqualTo(v2);
            }
        }
    }

    /** Numbered lines; version 1 changes one line in the middle. */
    private static byte[] text(int version) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            sb.append("line ").append(i).append(i == 20_000 && version == 1 ? " changed" : "")
                    .append(": value ").append(i * 7919 % 10007).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }
}

package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.por.EmbeddedPorStore;
import io.coffer.gateway.por.PorControl;
import io.coffer.sdk.Coffer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code por = embedded}: the engine's packs go to the in-process PoR server under DATA/por/ and read back exactly. */
class PorStoreOpeningTest {
    @TempDir
    Path dir;

    @Test
    void packsGoToTheEmbeddedServerUnderTheDataDirectoryAndReadBackAfterAReopen() throws Exception {
        Path data = dir.resolve("data");
        GatewayConfig c = EmbeddedPorStore.config(data, Map.of());
        Map<String, byte[]> objects;
        try (OpenStore store = EngineOpener.openStore(c, new SimpleMeterRegistry())) {
            objects = EmbeddedPorStore.fill(store.coffer(), 1);
            PorControl por = store.por().orElseThrow();
            assertThat(por.capacity()).isEqualTo(1 << EmbeddedPorStore.K);
            assertThat(por.blocksUsed()).as("190 KB of packed objects in 16 KiB blocks").isGreaterThanOrEqualTo(12);
        }
        Path server = EmbeddedPorStore.serverDir(data);
        assertThat(server.resolve("parameters")).isRegularFile();
        assertThat(Files.size(server.resolve("u.blocks"))).isGreaterThanOrEqualTo(12L * EmbeddedPorStore.BLOCK_BYTES);
        assertThat(data.resolve("por/client.state")).isRegularFile();
        try (Stream<Path> packs = Files.walk(data.resolve("blobs"))) {
            assertThat(packs.filter(Files::isRegularFile).map(p -> data.resolve("blobs").relativize(p).toString()))
                    .as("no pack on the directory backend").noneMatch(name -> name.startsWith("p/"));
        }

        GatewayConfig other = EmbeddedPorStore.config(data, Map.of(ConfigKey.POR_K, "12"));
        try (OpenStore store = EngineOpener.openExistingStore(other, true, true)) {
            assertThat(store.por().orElseThrow().capacity()).as("the first start's k stays").isEqualTo(1 << 10);
            for (Map.Entry<String, byte[]> o : objects.entrySet()) {
                assertThat(EmbeddedPorStore.read(store.coffer(), o.getKey())).as(o.getKey()).isEqualTo(o.getValue());
            }
        }
    }

    @Test
    void aPorStoreOpenedWithPorOffIsRefusedNamingTheSetting() {
        Path data = dir.resolve("data");
        try (OpenStore store = EngineOpener.openStore(EmbeddedPorStore.config(data, Map.of()),
                new SimpleMeterRegistry())) {
            EmbeddedPorStore.fill(store.coffer(), 2);
        }
        GatewayConfig off = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, data.toString()));
        assertThatThrownBy(() -> EngineOpener.openExisting(off, true, true))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("proofs of retrievability")
                .hasMessageContaining("--por embedded");
    }

    @Test
    void porCannotBeTurnedOnForAStoreWhosePacksAreOnTheBackendAlready() {
        Path data = dir.resolve("data");
        GatewayConfig plain = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, data.toString()));
        try (Coffer coffer = EngineOpener.open(plain, new SimpleMeterRegistry())) {
            EmbeddedPorStore.fill(coffer, 3);
        }
        assertThatThrownBy(() -> EngineOpener.openExisting(EmbeddedPorStore.config(data, Map.of()), true, true))
                .hasMessageContaining("outside PoR");
        assertThat(EmbeddedPorStore.serverDir(data)).as("no PoR server created").doesNotExist();
    }
}

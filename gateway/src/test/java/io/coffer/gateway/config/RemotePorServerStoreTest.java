package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.por.EmbeddedPorStore;
import io.coffer.por.net.PorKeyFile;
import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.JournaledPorServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code por = HOST:PORT}: the packs go to a PoR server over the network (as {@code coffer por-server} runs it),
 * authenticated with the session key in {@code por-key-file}; a wrong key is refused with a clear error.
 */
class RemotePorServerStoreTest {
    @TempDir
    Path dir;

    @Test
    void packsGoToARemotePorServerWithTheSessionKeyAndReadBackAudited() throws Exception {
        Path key = dir.resolve("session.key");
        byte[] sessionKey = PorKeyFile.create(key, new SecureRandom());
        try (JournaledPorServer server = JournaledPorServer.open(dir.resolve("por-server"),
                new ServerParameters(EmbeddedPorStore.K, 0, EmbeddedPorStore.BLOCK_BYTES));
             PorNetServer net = PorNetServer.start(server, sessionKey, new InetSocketAddress("127.0.0.1", 0),
                     PorNetServer.Limits.DEFAULT)) {
            Path data = dir.resolve("data");
            GatewayConfig c = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, data.toString(),
                    ConfigKey.POR, "127.0.0.1:" + net.port(), ConfigKey.POR_KEY_FILE, key.toString()));
            assertThat(c.porSettings().describe(data)).isEqualTo("127.0.0.1:" + net.port());
            Map<String, byte[]> objects;
            try (OpenStore store = EngineOpener.openStore(c, new SimpleMeterRegistry())) {
                objects = EmbeddedPorStore.fill(store.coffer(), 5);
                assertThat(store.por().orElseThrow().audit().passed()).isTrue();
                assertThat(store.por().orElseThrow().blocksUsed()).isGreaterThanOrEqualTo(12);
            }
            assertThat(EmbeddedPorStore.serverDir(data)).as("no embedded server").doesNotExist();
            try (OpenStore store = EngineOpener.openExistingStore(c, true, true)) {
                for (Map.Entry<String, byte[]> o : objects.entrySet()) {
                    assertThat(EmbeddedPorStore.read(store.coffer(), o.getKey())).as(o.getKey())
                            .isEqualTo(o.getValue());
                }
            }

            Path wrong = dir.resolve("wrong.key");
            PorKeyFile.create(wrong, new SecureRandom());
            GatewayConfig other = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, data.toString(),
                    ConfigKey.POR, "127.0.0.1:" + net.port(), ConfigKey.POR_KEY_FILE, wrong.toString()));
            assertThatThrownBy(() -> EngineOpener.openExisting(other, true, true)).isInstanceOf(RuntimeException.class)
                    .hasMessageContaining("cannot open the PoR server (127.0.0.1:" + net.port() + ")");
        }
    }
}

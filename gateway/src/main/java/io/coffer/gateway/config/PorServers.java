package io.coffer.gateway.config;

import io.coffer.por.net.PorKeyFile;
import io.coffer.por.net.ReconnectingPorServer;
import io.coffer.por.net.RemotePorServer;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.PorServer;
import io.coffer.por.store.JournaledPorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens the PoR server a store's settings name: the embedded one ({@link JournaledPorServer} in
 * {@code DATA/por/server}, created with {@code por-k} and {@code por-block-size} at its first start and opened with
 * its stored parameters afterwards, growing up to {@code por-max-k}) or a remote {@code coffer por-server} over its
 * MAC'd session, connected again
 * when the connection is lost ({@link ReconnectingPorServer}).
 */
final class PorServers {
    /**
     * A remote call's limit: a C rebuild of a large store (2^20 blocks) moves about 96 MiB each way and rebuilds C on
     * the server, which takes minutes.
     */
    static final Duration REMOTE_TIMEOUT = Duration.ofMinutes(10);

    private PorServers() {
    }

    /** The server for an enabled PoR setting; the caller closes it (both kinds are {@link AutoCloseable}). */
    static PorServer open(PorSettings s, Path dataDir) {
        try {
            return switch (s.mode()) {
                case EMBEDDED -> {
                    Path dir = PorSettings.serverDirectory(dataDir);
                    ServerParameters requested = Files.exists(dir.resolve("parameters")) ? null
                            : new ServerParameters(s.k(), s.batch(), s.blockBytes());
                    // a grown store keeps its k: the largest applies from now (a smaller one stops further growth)
                    JournaledPorServer server = JournaledPorServer.open(dir, requested);
                    yield server.limitGrowth(Math.max(server.k(), s.maxK()));
                }
                case REMOTE -> {
                    byte[] key = PorKeyFile.load(s.keyFile());
                    InetSocketAddress address = new InetSocketAddress(s.host(), s.port());
                    // a lost connection (the server closes idle ones after 10 minutes) is replaced on the next call
                    yield new ReconnectingPorServer(() -> RemotePorServer.connect(address, key, REMOTE_TIMEOUT));
                }
                case OFF -> throw new IllegalStateException("PoR is off");
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the PoR server (" + s.describe(dataDir) + "): "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            // a refused connection or handshake (wrong session key), bad stored parameters: say which server
            throw new IllegalStateException("cannot open the PoR server (" + s.describe(dataDir) + "): "
                    + e.getMessage(), e);
        }
    }
}

package io.coffer.por.client;

import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.RemotePorServer;
import io.coffer.por.server.PorServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Puts a server behind a real socket ({@link PorNetServer}) and reaches it through {@link RemotePorServer}, for the
 * adversarial tests that play their cheats over the transport; closes everything it opened.
 */
final class OverSocket implements AutoCloseable {
    private final byte[] sessionKey = new byte[32];
    private final List<AutoCloseable> open = new ArrayList<>();

    OverSocket(long seed) {
        new SplittableRandom(seed).nextBytes(sessionKey);
    }

    PorServer reached(PorServer server) {
        try {
            PorNetServer net = PorNetServer.start(server, sessionKey, new InetSocketAddress("127.0.0.1", 0),
                    PorNetServer.Limits.DEFAULT);
            open.add(net);
            RemotePorServer remote = RemotePorServer.connect(new InetSocketAddress("127.0.0.1", net.port()),
                    sessionKey, Duration.ofSeconds(30));
            open.add(remote);
            return remote;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        open.clear();
    }
}

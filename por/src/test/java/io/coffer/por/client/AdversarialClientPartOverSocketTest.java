package io.coffer.por.client;

import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.RemotePorServer;
import io.coffer.por.server.PorServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;

/**
 * Every cheat of {@link AdversarialClientPartTest}, played by a server behind a real socket ({@link PorNetServer}),
 * reached through {@link RemotePorServer} (PACES_PART, REBUILD_C_PACED, SNAPSHOT_U, NEXT_SEALED_C): caught the same.
 */
class AdversarialClientPartOverSocketTest extends AdversarialClientPartTest {
    private static final byte[] SESSION_KEY = new byte[32];

    static {
        new SplittableRandom(13).nextBytes(SESSION_KEY);
    }

    private final List<AutoCloseable> open = new ArrayList<>();

    @Override
    PorServer reached(PorServer server) {
        try {
            PorNetServer net = PorNetServer.start(server, SESSION_KEY, new InetSocketAddress("127.0.0.1", 0),
                    PorNetServer.Limits.DEFAULT);
            open.add(net);
            RemotePorServer remote = RemotePorServer.connect(new InetSocketAddress("127.0.0.1", net.port()),
                    SESSION_KEY, Duration.ofSeconds(30));
            open.add(remote);
            return remote;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }
}

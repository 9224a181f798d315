package io.coffer.por.client;

import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.RemotePorServer;
import io.coffer.por.server.PorServer;
import org.junit.jupiter.api.AfterEach;

/**
 * Every cheat of {@link AdversarialServerTest}, played by a server behind a real socket ({@link PorNetServer}) that
 * the client reaches through {@link RemotePorServer}: the transport (batched reads included) hides no deviation.
 */
class AdversarialServerOverSocketTest extends AdversarialServerTest {
    private final OverSocket socket = new OverSocket(11);

    @Override
    PorServer reached(PorServer server) {
        return socket.reached(server);
    }

    @AfterEach
    void closeAll() throws Exception {
        socket.close();
    }
}

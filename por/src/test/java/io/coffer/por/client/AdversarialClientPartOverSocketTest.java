package io.coffer.por.client;

import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.RemotePorServer;
import io.coffer.por.server.PorServer;
import org.junit.jupiter.api.AfterEach;

/**
 * Every cheat of {@link AdversarialClientPartTest}, played by a server behind a real socket ({@link PorNetServer}),
 * reached through {@link RemotePorServer} (PACES_PART, REBUILD_C_PACED, SNAPSHOT_U, NEXT_SEALED_C): caught the same.
 */
class AdversarialClientPartOverSocketTest extends AdversarialClientPartTest {
    private final OverSocket socket = new OverSocket(13);

    @Override
    PorServer reached(PorServer server) {
        return socket.reached(server);
    }

    @AfterEach
    void closeAll() throws Exception {
        socket.close();
    }
}

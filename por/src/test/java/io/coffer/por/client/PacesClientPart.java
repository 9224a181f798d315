package io.coffer.por.client;

import io.coffer.por.server.PorServer;
import java.util.List;

/**
 * A {@link ForwardingPorServer} that forwards the calls of the client's paced part as well ({@link
 * PorServer#pacesClientPart}): attacks and counters of that part override what they watch.
 */
class PacesClientPart extends ForwardingPorServer {
    PacesClientPart(PorServer inner) {
        super(inner);
    }

    @Override
    public boolean pacesClientPart() {
        return inner.pacesClientPart();
    }

    @Override
    public void rebuildCPaced() {
        inner.rebuildCPaced();
    }

    @Override
    public List<byte[]> snapshotSealedU(int from, int count) {
        return inner.snapshotSealedU(from, count);
    }

    @Override
    public void putNextSealedC(int from, byte[][] x, byte[][] y) {
        inner.putNextSealedC(from, x, y);
    }
}

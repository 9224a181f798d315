package io.coffer.por.blob;

import io.coffer.por.net.PorTransportException;
import io.coffer.por.server.PorServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * A PoR server killed and restarted as the gateway sees it through {@code ReconnectingPorServer}: the first call
 * named {@code killedIn} is applied and its answer lost; then every call fails (the parameters stay the last
 * handshake's) until {@link #restart}, after which calls reach the server as it is now.
 */
final class KilledServer {
    private final PorServer server;
    private final String killedIn;
    private boolean killed;
    private boolean down;
    private int lastK;

    KilledServer(PorServer server, String killedIn) {
        this.server = server;
        this.killedIn = killedIn;
    }

    boolean killed() {
        return killed;
    }

    void restart() {
        down = false;
    }

    PorServer proxy() {
        return (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(), new Class<?>[] {PorServer.class},
                (proxy, method, args) -> {
                    String name = method.getName();
                    if (down && name.equals("k")) {
                        return lastK;
                    }
                    if (down && !name.equals("blockBytes") && !name.equals("batchExponent")) {
                        throw new PorTransportException("the PoR server is down");
                    }
                    int k = server.k();
                    try {
                        Object result = method.invoke(server, args);
                        if (name.equals(killedIn) && !killed) {
                            killed = true;
                            down = true;
                            lastK = k;
                            throw new PorTransportException("the connection was lost before the answer");
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}

package io.coffer.keyserver.transport;

import java.util.HashMap;
import java.util.Map;

/**
 * Open HTTPS connections by client identity, capped per identity: one client certificate cannot hold every file
 * descriptor and TLS session of the server while the others wait.
 */
public final class ClientConnections {
    private final int maxPerClient;
    private final Map<String, Integer> open = new HashMap<>();

    public ClientConnections(int maxPerClient) {
        if (maxPerClient < 1) {
            throw new IllegalArgumentException("maxPerClient must be positive");
        }
        this.maxPerClient = maxPerClient;
    }

    public int maxPerClient() {
        return maxPerClient;
    }

    /** Counts one more connection of {@code client}; false (nothing counted) when it already holds the most. */
    synchronized boolean tryOpen(String client) {
        int n = open.getOrDefault(client, 0);
        if (n >= maxPerClient) {
            return false;
        }
        open.put(client, n + 1);
        return true;
    }

    /** A connection counted by {@link #tryOpen} has closed. */
    synchronized void closed(String client) {
        open.computeIfPresent(client, (c, n) -> n == 1 ? null : n - 1);
    }

    /** Open connections of one client. */
    public synchronized int of(String client) {
        return open.getOrDefault(client, 0);
    }
}

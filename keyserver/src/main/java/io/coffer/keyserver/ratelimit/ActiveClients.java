package io.coffer.keyserver.ratelimit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The paper's active-client list: clients with a query awaiting its answer. */
final class ActiveClients {
    private final Set<String> active = ConcurrentHashMap.newKeySet();

    /** Adds the client; false if it was already active (its new query must be dropped). */
    boolean enter(String client) {
        return active.add(client);
    }

    void leave(String client) {
        active.remove(client);
    }
}

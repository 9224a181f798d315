package io.coffer.keyserver.transport;

import io.coffer.keyserver.wire.SessionGrant;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * OPRFv2 sessions granted by KSInit: id, key, client identity, expiry and the last accepted sequence
 * number. Sequence numbers start at 1, stay below 2^63 and must be strictly increasing (no reorder
 * window): a datagram whose number is not greater than the last accepted one is a replay. The table is capped, in all
 * and per client identity; expired sessions are swept.
 */
public final class Sessions {
    /** One granted session. */
    public static final class Session {
        private final byte[] id;
        private final byte[] key;
        private final String client;
        private final long expiresAtNanos;
        private long lastSequence;

        Session(byte[] id, byte[] key, String client, long expiresAtNanos) {
            this.id = id;
            this.key = key;
            this.client = client;
            this.expiresAtNanos = expiresAtNanos;
        }

        public String client() {
            return client;
        }

        byte[] key() {
            return key;
        }

        boolean expired(long now) {
            return now - expiresAtNanos >= 0;
        }

        /** Accepts the number if it is greater than every accepted one before (and than 0). */
        synchronized boolean advance(long sequence) {
            if (sequence <= lastSequence) {
                return false;
            }
            lastSequence = sequence;
            return true;
        }

        @Override
        public String toString() {
            return "Session[" + client + "]";
        }
    }

    /** Why a session was not granted: the answer's HTTP status and a message for the client. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final int httpStatus;

        Refused(int httpStatus, String message) {
            super(message, null, false, false);
            this.httpStatus = httpStatus;
        }

        public int httpStatus() {
            return httpStatus;
        }
    }

    private final Map<ByteBuffer, Session> sessions = new ConcurrentHashMap<>();
    /** Live sessions by client identity; changed only under this object's lock, with {@link #sessions}. */
    private final Map<String, Integer> perClient = new HashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Duration lifetime;
    private final int maxSessions;
    private final int maxPerClient;
    private final LongSupplier clock;

    /**
     * @param maxSessions  most live sessions in all
     * @param maxPerClient most live sessions of one client identity, so that one client (a leaked certificate, a
     *                     gateway restarting in a loop) cannot fill the table and lock every other client out
     */
    public Sessions(Duration lifetime, int maxSessions, int maxPerClient, LongSupplier nanoClock) {
        if (lifetime.getSeconds() < 1 || maxSessions < 1 || maxPerClient < 1) {
            throw new IllegalArgumentException("session lifetime >= 1s, maxSessions >= 1 and maxPerClient >= 1");
        }
        this.lifetime = lifetime;
        this.maxSessions = maxSessions;
        this.maxPerClient = maxPerClient;
        this.clock = nanoClock;
    }

    /**
     * Grants a new session to a client.
     *
     * @throws Refused 429 when the client already holds {@code maxPerClient} live sessions, 503 when the table is
     *                 full; expired sessions are swept first in both cases
     */
    public synchronized SessionGrant create(String client, int udpPort) throws Refused {
        if (sessions.size() >= maxSessions || perClient.getOrDefault(client, 0) >= maxPerClient) {
            sweep();
        }
        if (perClient.getOrDefault(client, 0) >= maxPerClient) {
            throw new Refused(429, "client " + client + " already holds " + maxPerClient
                    + " live sessions (the most per client); reuse one, or wait until one expires");
        }
        if (sessions.size() >= maxSessions) {
            throw new Refused(503, "session table full (" + maxSessions + " live sessions)");
        }
        byte[] id = new byte[SessionGrant.ID_LENGTH];
        byte[] key = new byte[SessionGrant.KEY_LENGTH];
        random.nextBytes(id);
        random.nextBytes(key);
        sessions.put(ByteBuffer.wrap(id), new Session(id, key, client, clock.getAsLong() + lifetime.toNanos()));
        perClient.merge(client, 1, Integer::sum);
        return new SessionGrant(id, key, (int) lifetime.getSeconds(), udpPort);
    }

    Session lookup(byte[] id) {
        return sessions.get(ByteBuffer.wrap(id));
    }

    synchronized void remove(byte[] id) {
        Session s = sessions.remove(ByteBuffer.wrap(id));
        if (s != null) {
            forget(s.client());
        }
    }

    /** Removes expired sessions. */
    public synchronized void sweep() {
        long now = clock.getAsLong();
        for (Iterator<Session> it = sessions.values().iterator(); it.hasNext(); ) {
            Session s = it.next();
            if (s.expired(now)) {
                it.remove();
                forget(s.client());
            }
        }
    }

    private void forget(String client) {
        perClient.computeIfPresent(client, (c, n) -> n == 1 ? null : n - 1);
    }

    /** Live (not yet swept) sessions of one client. */
    public synchronized int sessionsOf(String client) {
        return perClient.getOrDefault(client, 0);
    }

    public int size() {
        return sessions.size();
    }

    long now() {
        return clock.getAsLong();
    }
}
